import BundleKitTestSupport
import BundleKitTranslation
import Foundation

/// A small package-shaped folder of tables whose every answer the tests know.
struct MemoryFixture {
  let folder: TemporaryFolder
  let memoryPath: String

  init() throws {
    folder = try TemporaryFolder()
    let files: [String: String] = [
      "App/en.lproj/Localizable.strings": """
      /* Button that closes a dialog. */
      "alert.cancel" = "Cancel";
      "sheet.cancel" = "Cancel";
      "toolbar.cancel" = "Cancel";
      /* Opens the settings screen. */
      "menu.settings" = "Settings";
      "greeting" = "Hello, %@!";
      "only.english" = "Only in English";
      "door.open" = "Open the door";
      """,
      "App/de.lproj/Localizable.strings": """
      "alert.cancel" = "Abbrechen";
      "sheet.cancel" = "Abbrechen";
      "toolbar.cancel" = "Stornieren";
      "menu.settings" = "Einstellungen";
      "greeting" = "Hallo, %@!";
      "door.open" = "Öffne die Tür";
      """,
      "App/de-CH.lproj/Localizable.strings": """
      "menu.settings" = "Iistellige";
      """,
      "App/pt_BR.lproj/Localizable.strings": """
      "alert.cancel" = "Cancelar";
      "menu.settings" = "Ajustes";
      """,
      "App/zh-Hans.lproj/Localizable.strings": """
      "alert.cancel" = "取消";
      """,
      "App/en.lproj/Localizable.stringsdict": Self.plurals(one: "%d file", other: "%d files"),
      "App/de.lproj/Localizable.stringsdict": Self.plurals(one: "%d Datei", other: "%d Dateien"),
      "Kit/Menu.xcstrings": """
      {
        "sourceLanguage" : "en",
        "strings" : {
          "Delete" : {
            "comment" : "Menu item that deletes",
            "localizations" : {
              "de" : { "stringUnit" : { "state" : "translated", "value" : "Löschen" } },
              "fr" : { "stringUnit" : { "state" : "translated", "value" : "Supprimer" } }
            }
          },
          "items.count" : {
            "localizations" : {
              "en" : { "variations" : { "plural" : {
                "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld item" } },
                "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld items" } }
              } } },
              "fr" : { "variations" : { "plural" : {
                "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld élément" } },
                "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld éléments" } }
              } } }
            }
          },
          "Brand" : { "shouldTranslate" : false }
        },
        "version" : "1.0"
      }
      """,
    ]
    for (path, text) in files {
      let full = folder.file(path)
      try FileManager.default.createDirectory(
        atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try text.write(toFile: full, atomically: true, encoding: .utf8)
    }
    memoryPath = folder.file("memory.sqlite")
    _ = try MemoryBuilder().build(from: [folder.file("App"), folder.file("Kit")], to: memoryPath)
  }

  static func plurals(one: String, other: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0"><dict>
      <key>%d files</key><dict>
        <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
        <key>files</key><dict>
          <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
          <key>NSStringFormatValueTypeKey</key><string>d</string>
          <key>one</key><string>\(one)</string>
          <key>other</key><string>\(other)</string>
        </dict>
      </dict>
    </dict></plist>
    """
  }
}

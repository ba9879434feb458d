import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitStringsTable

/// `strings coverage` and `strings pseudo`: the two gates teams put in CI, on tables shaped
/// like an app's (`.strings`, `.stringsdict` plurals, a catalog with variations,
/// substitutions, needs_review and stale keys, a regional variant).
@Suite struct CoverageAndPseudoTests {
  /// A small app's tables: English complete, French one key short, German complete with a
  /// Swiss variant holding one override, a catalog with French needing review.
  func makeTables(in folder: TemporaryFolder) throws -> String {
    let root = folder.file("App/Resources")
    let files: [String: String] = [
      "en.lproj/Localizable.strings": """
      /* Title of the inbox */
      "inbox.title" = "Inbox";
      "inbox.empty" = "No messages from %@ yet: 100% clean";
      "sync.progress" = "Synced %1$lld of %2$lld (%3$.1f%%)";
      """,
      "fr.lproj/Localizable.strings": """
      "inbox.title" = "Boîte de réception";
      "inbox.empty" = "Aucun message de %@ : 100% propre";
      """,
      "de.lproj/Localizable.strings": """
      "inbox.title" = "Posteingang";
      "inbox.empty" = "Noch keine Nachrichten von %@: 100% sauber";
      "sync.progress" = "%1$lld von %2$lld synchronisiert (%3$.1f%%)";
      """,
      "de-CH.lproj/Localizable.strings": """
      "inbox.title" = "Posteingang (CH)";
      """,
      "en.lproj/Localizable.stringsdict": """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      \t<key>%lld unread</key>
      \t<dict>
      \t\t<key>NSStringLocalizedFormatKey</key>
      \t\t<string>%#@unread@ in %@</string>
      \t\t<key>unread</key>
      \t\t<dict>
      \t\t\t<key>NSStringFormatSpecTypeKey</key>
      \t\t\t<string>NSStringPluralRuleType</string>
      \t\t\t<key>NSStringFormatValueTypeKey</key>
      \t\t\t<string>lld</string>
      \t\t\t<key>one</key>
      \t\t\t<string>%lld unread message</string>
      \t\t\t<key>other</key>
      \t\t\t<string>%lld unread messages</string>
      \t\t</dict>
      \t</dict>
      </dict>
      </plist>
      """,
      "Inbox.xcstrings": """
      {
        "sourceLanguage" : "en",
        "strings" : {
          "Archive" : {
            "localizations" : {
              "fr" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "Archiver"
                }
              }
            }
          },
          "Delete %lld messages" : {
            "localizations" : {
              "en" : {
                "variations" : {
                  "plural" : {
                    "one" : {
                      "stringUnit" : {
                        "state" : "translated",
                        "value" : "Delete %lld message"
                      }
                    },
                    "other" : {
                      "stringUnit" : {
                        "state" : "translated",
                        "value" : "Delete %lld messages"
                      }
                    }
                  }
                }
              },
              "fr" : {
                "variations" : {
                  "plural" : {
                    "one" : {
                      "stringUnit" : {
                        "state" : "needs_review",
                        "value" : "Supprimer %lld message"
                      }
                    },
                    "other" : {
                      "stringUnit" : {
                        "state" : "translated",
                        "value" : "Supprimer %lld messages"
                      }
                    }
                  }
                }
              }
            }
          },
          "Old button" : {
            "extractionState" : "stale",
            "localizations" : {
              "en" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "Old button"
                }
              }
            }
          },
          "v2.3" : {
            "shouldTranslate" : false
          }
        },
        "version" : "1.0"
      }
      """,
    ]
    for (path, text) in files {
      let full = root + "/" + path
      try FileManager.default.createDirectory(
        atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: URL(fileURLWithPath: full))
    }
    return root
  }

  @Test("coverage per language and table: missing keys, review states, inheritance, --min")
  func coverage() throws {
    let folder = try TemporaryFolder()
    let root = try makeTables(in: folder)
    var result = try BundleKitTool.run(["strings", "coverage", root, "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    func row(_ language: String, _ table: String) -> [String: Any]? {
      rows.first { $0["language"] as? String == language && $0["table"] as? String == table }
    }
    // Localizable: en has 4 keys (3 in .strings, 1 in .stringsdict).
    #expect(row("fr", "Localizable")?["translated"] as? Int == 2)
    #expect(row("fr", "Localizable")?["total"] as? Int == 4)
    #expect(
      row("fr", "Localizable")?["missing"] as? [String] == ["%lld unread", "sync.progress"])
    #expect(row("de", "Localizable")?["missing"] as? [String] == ["%lld unread"])
    // de-CH has one key of its own and inherits the others from de.
    #expect(row("de-CH", "Localizable")?["missing"] as? [String] == ["%lld unread"])
    // Inbox: "Archive" (translated) and the plural (one case needs review) count; the stale
    // key and the one not to translate do not.
    #expect(row("fr", "Inbox")?["total"] as? Int == 2)
    #expect(row("fr", "Inbox")?["missing"] as? [String] == ["Delete %lld messages"])
    #expect(row("fr", "Inbox")?["share"] as? Double == 0.5)
    // A gate: fr is at 50% in Inbox.
    result = try BundleKitTool.run(["strings", "coverage", root, "--min", "0.6"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("error: fr Inbox is 50.0% translated, under 60.0% (1 missing)"))
    #expect(result.stdout.contains("fr Localizable: missing 2: \"%lld unread\", \"sync.progress\""))
    result = try BundleKitTool.run(["strings", "coverage", root, "--min", "0.4"])
    #expect(result.status == 0, "\(result.stderr)")
    result = try BundleKitTool.run(["strings", "coverage", root, "--min", "90"])
    #expect(result.status == 2)
  }

  @Test("pseudo keeps every placeholder and plural form: lint passes, other readers agree")
  func pseudo() throws {
    for style in Pseudolocalizer.Style.allCases {
      let folder = try TemporaryFolder()
      let root = try makeTables(in: folder)
      let catalogBefore = try Data(contentsOf: URL(fileURLWithPath: root + "/Inbox.xcstrings"))
      var result = try BundleKitTool.run(["strings", "pseudo", root, "--style", style.rawValue])
      #expect(result.status == 0, "\(style): \(result.stderr)")
      // The output lints as cleanly as the development language (missing translations of
      // fr and de aside, which are not the pseudo-language's).
      result = try BundleKitTool.run([
        "strings", "lint", root, "--severity", "missing-translation=ignore", "--format", "json",
      ])
      let findings = try #require(
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
      let pseudoFindings = findings.filter {
        ($0["path"] as? String ?? "").contains("qps-ploc")
          || ($0["message"] as? String ?? "").contains("qps-ploc")
      }
      #expect(pseudoFindings.isEmpty, "\(style): \(pseudoFindings)")
      // Foundation reads the .strings; its placeholders are the source's, in order.
      let strings = try #require(
        try PropertyListSerialization.propertyList(
          from: Data(
            contentsOf: URL(fileURLWithPath: root + "/qps-ploc.lproj/Localizable.strings")),
          format: nil) as? [String: String])
      let source = try #require(
        try PropertyListSerialization.propertyList(
          from: Data(contentsOf: URL(fileURLWithPath: root + "/en.lproj/Localizable.strings")),
          format: nil) as? [String: String])
      #expect(Set(strings.keys) == Set(source.keys))
      for (key, value) in source {
        let pseudo = try #require(strings[key])
        #expect(Self.placeholders(pseudo) == Self.placeholders(value), "\(style) \(key): \(pseudo)")
        #expect(pseudo != value)
      }
      // Python's plistlib reads the .stringsdict: the same keys, rule and categories.
      if let python = Tool.path("python3") {
        let check = try Tool.run(
          python,
          [
            "-c",
            """
            import plistlib, sys
            a = plistlib.load(open(sys.argv[1], 'rb'))['%lld unread']
            b = plistlib.load(open(sys.argv[2], 'rb'))['%lld unread']
            assert sorted(a['unread']) == sorted(b['unread']), (a, b)
            assert b['unread']['NSStringFormatValueTypeKey'] == 'lld'
            assert '%#@unread@' in b['NSStringLocalizedFormatKey'] and '%@' in b['NSStringLocalizedFormatKey']
            assert '%lld' in b['unread']['one'] and '%lld' in b['unread']['other']
            """,
            root + "/en.lproj/Localizable.stringsdict",
            root + "/qps-ploc.lproj/Localizable.stringsdict",
          ])
        #expect(check.status == 0, "\(style): \(check.stderr)")
      }
      // The catalog gained the language on every key to translate, and nothing else changed.
      let after = try Data(contentsOf: URL(fileURLWithPath: root + "/Inbox.xcstrings"))
      let before = try #require(
        try JSONSerialization.jsonObject(with: catalogBefore) as? NSDictionary)
      let changed = try #require(
        try JSONSerialization.jsonObject(with: after) as? [String: Any])
      let strings2 = try #require(changed["strings"] as? [String: [String: Any]])
      let plural = try #require(
        (strings2["Delete %lld messages"]?["localizations"] as? [String: Any])?["qps-ploc"]
          as? [String: Any])
      let cases = try #require(
        (plural["variations"] as? [String: Any])?["plural"] as? [String: Any])
      #expect(Set(cases.keys) == ["one", "other"])
      #expect(strings2["v2.3"]?["localizations"] == nil)
      var stripped = changed
      var entries = strings2
      for (key, var entry) in strings2 {
        var localizations = entry["localizations"] as? [String: Any] ?? [:]
        localizations["qps-ploc"] = nil
        entry["localizations"] = localizations.isEmpty ? nil : localizations
        entries[key] = entry
      }
      stripped["strings"] = entries
      #expect(before == (stripped as NSDictionary), "\(style)")
      // Xcode's layout kept: the added language is the only change, line by line.
      let oldLines = String(decoding: catalogBefore, as: UTF8.self).split(separator: "\n")
      let newLines = String(decoding: after, as: UTF8.self).split(separator: "\n")
      #expect(Set(oldLines).isSubset(of: Set(newLines)), "\(style)")
    }
  }

  /// The development language named by the `--config` file counts as the command line's
  /// does: read once the command line is parsed, it was not seen by the check before.
  @Test("pseudo refuses the development language, from the command line or the --config file")
  func pseudoRefusesDevelopmentLanguage() throws {
    let folder = try TemporaryFolder()
    for (language, text) in [("en", "Hello"), ("de", "Hallo")] {
      try FileManager.default.createDirectory(
        atPath: folder.file("\(language).lproj"), withIntermediateDirectories: true)
      try Data("\"hello\" = \"\(text)\";\n".utf8).write(
        to: URL(fileURLWithPath: folder.file("\(language).lproj/Localizable.strings")))
    }
    let config = folder.file("bundlekit.json")
    try Data(#"{ "developmentLanguage": "de" }"#.utf8).write(to: URL(fileURLWithPath: config))
    for arguments in [
      ["strings", "pseudo", folder.path, "--language", "de", "--development-language", "de"],
      ["--config", config, "strings", "pseudo", folder.path, "--language", "de"],
      ["strings", "pseudo", folder.path, "--language", "de", "--config", config],
    ] {
      let run = try BundleKitTool.run(arguments)
      #expect(run.status == 2, "\(arguments): \(run.stderr)")
      #expect(
        run.stderr.contains("other than the development language, not 'de'"),
        "\(arguments): \(run.stderr)")
    }
    #expect(
      try String(contentsOfFile: folder.file("de.lproj/Localizable.strings"), encoding: .utf8)
        == "\"hello\" = \"Hallo\";\n")
    // Without either, German is a language like any other to pseudolocalize into.
    let allowed = try BundleKitTool.run([
      "strings", "pseudo", folder.path, "--language", "de", "--dry-run",
    ])
    #expect(allowed.status == 0, "\(allowed.stderr)")
  }

  /// `100% sure` keeps `% s`: printf reads it as a placeholder in the source too, so the
  /// pseudo-language formats exactly as the development language does.
  @Test("transform: letters change, placeholders and %% do not; every style")
  func transform() {
    #expect(Pseudolocalizer.accents.count == 52)
    #expect(Set(Pseudolocalizer.accents.values).count == 52)
    let text = "%1$@ synced %2$lld files (%3$.1f%%), %#@unread@ and 100% sure"
    for style in Pseudolocalizer.Style.allCases {
      let pseudo = Pseudolocalizer(style: style).transform(text)
      #expect(Self.placeholders(pseudo) == Self.placeholders(text), "\(style): \(pseudo)")
      // Accented styles change the letters; rtl wraps the text in overrides.
      #expect(
        style == .rtl ? pseudo.contains("\u{202E} synced \u{202C}") : !pseudo.contains("synced"),
        "\(style): \(pseudo)")
    }
    #expect(Pseudolocalizer(style: .accented).transform("Inbox") == "[Îñƀöẋ]")
    #expect(Pseudolocalizer(style: .long).transform("Inbox").count > "[Îñƀöẋ]".count)
    #expect(Pseudolocalizer(style: .rtl).transform("Hi %@") == "\u{202E}Hi \u{202C}%@")
    #expect(Pseudolocalizer(style: .long).transform("") == "")
  }

  /// The placeholders of a format string, as printf reads them, in order.
  static func placeholders(_ text: String) -> [String] {
    Pseudolocalizer.segments(text).compactMap {
      if case .placeholder(let placeholder) = $0 { return placeholder }
      return nil
    }
  }
}

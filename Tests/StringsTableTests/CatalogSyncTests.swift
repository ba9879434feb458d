import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitStringsTable

/// Sync of a catalog with what the code uses, as Xcode's build does it: checked through
/// Foundation's own JSON reader, and byte for byte where Xcode's layout decides.
struct CatalogSyncTests {
  /// A catalog as Xcode writes one: sorted keys, `" : "`, two spaces, no final line break.
  static let catalog = """
    {
      "sourceLanguage" : "en",
      "strings" : {
        "Done" : {
          "comment" : "Old comment",
          "localizations" : {
            "fr" : {
              "stringUnit" : {
                "state" : "translated",
                "value" : "Terminé"
              }
            }
          }
        },
        "Draft" : {
          "extractionState" : "stale",
          "localizations" : {
            "de" : {
              "stringUnit" : {
                "state" : "translated",
                "value" : "Entwurf"
              }
            }
          }
        },
        "Hand written" : {
          "extractionState" : "manual",
          "localizations" : {
            "fr" : {
              "stringUnit" : {
                "state" : "translated",
                "value" : "À la main"
              }
            }
          }
        },
        "Never translated" : {

        },
        "Removed %lld" : {
          "localizations" : {
            "fr" : {
              "variations" : {
                "plural" : {
                  "one" : {
                    "stringUnit" : {
                      "state" : "translated",
                      "value" : "%lld supprimé"
                    }
                  },
                  "other" : {
                    "stringUnit" : {
                      "state" : "translated",
                      "value" : "%lld supprimés"
                    }
                  }
                }
              }
            }
          }
        },
        "welcome" : {
          "extractionState" : "extracted_with_value",
          "localizations" : {
            "en" : {
              "stringUnit" : {
                "state" : "new",
                "value" : "Welcome"
              }
            }
          }
        }
      },
      "version" : "1.0"
    }
    """

  static func code(_ key: String, value: String? = nil, comment: String? = nil, line: Int = 1)
    -> CatalogSync.CodeString
  {
    CatalogSync.CodeString(
      key: key, value: value, comment: comment, file: "App.swift", line: line, column: 5)
  }

  static func entries(_ bytes: [UInt8]) throws -> [String: [String: Any]] {
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    return try #require(root["strings"] as? [String: [String: Any]])
  }

  @Test(
    "a new key of two or more specifiers gets them numbered as its new source unit, as Xcode adds it (Cami, Redford, HiPixel, NetNewsWire)"
  )
  func numberedSpecifiers() throws {
    let empty = try StringCatalog(
      bytes: Array(
        "{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : {\n\n  },\n  \"version\" : \"1.0\"\n}"
          .utf8),
      path: "Localizable.xcstrings")
    let result = try CatalogSync.sync(
      empty,
      with: [
        Self.code("%@ - %@"), Self.code("You have %lld in %@ days."), Self.code("Hello %@"),
        Self.code("100%% of %@ and %.1f"), Self.code("%2$@ before %1$@"),
        Self.code("%@ of %@", value: "%@ out of %@"),
      ])
    let entries = try Self.entries(result.bytes)
    func source(_ key: String) -> String? {
      ((entries[key]?["localizations"] as? [String: Any])?["en"] as? [String: Any])
        .flatMap { ($0["stringUnit"] as? [String: Any])?["value"] as? String }
    }
    #expect(source("%@ - %@") == "%1$@ - %2$@")
    #expect(source("You have %lld in %@ days.") == "You have %1$lld in %2$@ days.")
    #expect(source("100%% of %@ and %.1f") == "100%% of %1$@ and %2$.1f")
    #expect(entries["%@ - %@"]?["extractionState"] == nil)
    // One specifier, or numbered already: `{}`, as before.
    #expect(entries["Hello %@"]?.isEmpty == true)
    #expect(entries["%2$@ before %1$@"]?.isEmpty == true)
    // A default value is written as the code gives it.
    #expect(source("%@ of %@") == "%@ out of %@")
    // Xcode's layout: the numbered unit as Cami's catalog has it.
    let text = String(decoding: result.bytes, as: UTF8.self)
    #expect(
      text.contains(
        """
            "%@ - %@" : {
              "localizations" : {
                "en" : {
                  "stringUnit" : {
                    "state" : "new",
                    "value" : "%1$@ - %2$@"
                  }
                }
              }
            },
        """), "\(text)")
  }

  @Test("Xcode 26's generated comment: kept where the code has none, replaced by the code's")
  func generatedComments() throws {
    let bytes = Array(
      """
      {
        "sourceLanguage" : "en",
        "strings" : {
          "Later" : {
            "comment" : "A button that postpones.",
            "isCommentAutoGenerated" : true
          },
          "Save" : {
            "comment" : "A button that saves.",
            "isCommentAutoGenerated" : true
          }
        },
        "version" : "1.0"
      }
      """.utf8)
    let catalog = try StringCatalog(bytes: bytes, path: "Localizable.xcstrings")
    #expect(catalog.strings["Save"]?.isCommentAutoGenerated == true)
    let result = try CatalogSync.sync(
      catalog, with: [Self.code("Save", comment: "Saves the draft"), Self.code("Later")])
    let entries = try Self.entries(result.bytes)
    #expect(entries["Save"]?["comment"] as? String == "Saves the draft")
    #expect(entries["Save"]?["isCommentAutoGenerated"] == nil, "\(entries)")
    #expect(entries["Later"]?["comment"] as? String == "A button that postpones.")
    #expect(entries["Later"]?["isCommentAutoGenerated"] as? Bool == true)
  }

  @Test("a key's comments from several uses are sorted as Xcode sorts them, capitals first")
  func sortedComments() throws {
    // OmniKit's shape: the code's order is not the catalog's (checked on its catalogs).
    let bytes = Array(
      """
      {
        "sourceLanguage" : "en",
        "strings" : {
          "Pod Expired" : {
            "comment" : "Alert content title for podExpireImminent pod alert\\nAlert content title for podExpiring pod alert\\nThe title for Pod Expired alarm notification"
          }
        },
        "version" : "1.0"
      }
      """.utf8)
    let catalog = try StringCatalog(bytes: bytes, path: "Localizable.xcstrings")
    let code = [
      Self.code("Pod Expired", comment: "Alert content title for podExpiring pod alert", line: 42),
      Self.code(
        "Pod Expired", comment: "Alert content title for podExpireImminent pod alert", line: 44),
      Self.code("Pod Expired", comment: "The title for Pod Expired alarm notification", line: 90),
      Self.code("Pod expired", comment: "Description for pod expired alert", line: 3),
      Self.code("Pod expired", comment: "Description for Pod expired pod fault", line: 7),
    ]
    let result = try CatalogSync.sync(catalog, with: code)
    // Up to date where Xcode wrote it so; the new key's comments in the same order.
    #expect(result.changes.map(\.description) == ["added \"Pod expired\""])
    let entries = try Self.entries(result.bytes)
    #expect(
      entries["Pod expired"]?["comment"] as? String
        == "Description for Pod expired pod fault\nDescription for pod expired alert")
  }

  @Test("a key the code still holds as a plain literal is kept with a note, never stale or removed")
  func heldAsLiteral() throws {
    let catalog = try StringCatalog(bytes: Array(Self.catalog.utf8), path: "Localizable.xcstrings")
    let code = [
      Self.code("Done"), Self.code("Draft"), Self.code("Hand written"),
      Self.code("welcome", value: "Welcome aboard"),
    ]
    // "Never translated" held as a literal, "Removed %lld" as an interpolated one.
    let result = try CatalogSync.sync(
      catalog, with: code, literals: ["Never translated", "Removed %@", "unrelated"])
    let described = result.changes.map(\.description)
    #expect(!described.contains { $0.contains("Never translated") || $0.contains("Removed") })
    let notes = result.diagnostics.map(\.message)
    #expect(notes.contains { $0.hasPrefix("\"Never translated\" is kept") }, "\(notes)")
    #expect(notes.contains { $0.hasPrefix("\"Removed %lld\" is kept") }, "\(notes)")
    // Without the literals, the same catalog loses them as before.
    let plain = try CatalogSync.sync(catalog, with: code).changes.map(\.description)
    #expect(plain.contains("stale \"Removed %lld\" (no longer in the code)"))
  }

  @Test("an uncertain specifier (%lld guessed from index + 1) is the catalog's key with another")
  func uncertainInteger() throws {
    #expect(FormatKeyPattern.matches(code: "Phase %lld", catalog: "Phase %d", anySpecifier: true))
    #expect(!FormatKeyPattern.matches(code: "Phase %lld", catalog: "Phase %d"))
    #expect(!FormatKeyPattern.matches(code: "Phase %lld", catalog: "Phase", anySpecifier: true))
    #expect(FormatKeyPattern.matches(code: "100%% %@", catalog: "100%% %lld"))
  }

  @Test("add, stale, removed, revived, manual, comments and values, as Xcode merges them")
  func merge() throws {
    let catalog = try StringCatalog(bytes: Array(Self.catalog.utf8), path: "Localizable.xcstrings")
    let code = [
      Self.code("Done", comment: "Finishes editing", line: 3),
      Self.code("Done", comment: "Closes the sheet", line: 9),
      Self.code("Done", comment: "Finishes editing", line: 12),
      Self.code("Draft"),
      Self.code("Hand written", comment: "ignored: manual"),
      Self.code("%lld new messages", comment: "Inbox badge"),
      Self.code("welcome", value: "Welcome aboard"),
      Self.code("onboarding.title", value: "Get started", comment: "First page"),
    ]
    let result = try CatalogSync.sync(catalog, with: code)
    #expect(
      result.changes.map(\.description) == [
        "added \"%lld new messages\"",
        "comment of \"Done\"",
        "in use again \"Draft\"",
        "removed \"Never translated\" (no longer in the code, never translated)",
        "stale \"Removed %lld\" (no longer in the code)",
        "added \"onboarding.title\"",
        "source value of \"welcome\"",
      ])
    let entries = try Self.entries(result.bytes)
    #expect(entries["%lld new messages"]?["comment"] as? String == "Inbox badge")
    #expect(entries["%lld new messages"]?["extractionState"] == nil)
    // Each distinct comment once, in the order the code has them.
    // Sorted, as Xcode writes them, not in the code's order.
    #expect(entries["Done"]?["comment"] as? String == "Closes the sheet\nFinishes editing")
    #expect(entries["Draft"]?["extractionState"] == nil)
    #expect(entries["Never translated"] == nil)
    #expect(entries["Removed %lld"]?["extractionState"] as? String == "stale")
    let title = try #require(entries["onboarding.title"])
    #expect(title["extractionState"] as? String == "extracted_with_value")
    #expect(title["comment"] as? String == "First page")
    let welcome = try #require(entries["welcome"]?["localizations"] as? [String: Any])
    #expect(
      (welcome["en"] as? [String: Any])?["stringUnit"] as? [String: String]
        == ["state": "new", "value": "Welcome aboard"])
    // Manual keys and every translation are as they were.
    let before = try Self.entries(Array(Self.catalog.utf8))
    for key in ["Hand written", "Removed %lld", "Draft", "Done"] {
      let old = try JSONSerialization.data(
        withJSONObject: before[key]?["localizations"] ?? [:], options: .sortedKeys)
      let new = try JSONSerialization.data(
        withJSONObject: entries[key]?["localizations"] ?? [:], options: .sortedKeys)
      #expect(old == new, "translations of \(key)")
    }
    #expect(
      NSDictionary(dictionary: entries["Hand written"] ?? [:])
        == NSDictionary(dictionary: before["Hand written"] ?? [:]))

    // Xcode's layout: an added key is `{` blank line `}`, no final line break.
    let text = String(decoding: result.bytes, as: UTF8.self)
    #expect(
      text.contains("\n    \"%lld new messages\" : {\n      \"comment\" : \"Inbox badge\"\n    },"))
    #expect(text.last == "}")

    // Synced again: nothing to do, not a byte changed.
    let again = try CatalogSync.sync(
      try StringCatalog(bytes: result.bytes, path: "Localizable.xcstrings"), with: code)
    #expect(again.changes.isEmpty)
    #expect(again.bytes == result.bytes)
  }

  @Test("a value someone edited is kept; two default values for one key are a warning")
  func editedValues() throws {
    let edited = Self.catalog.replacingOccurrences(of: "\"new\"", with: "\"translated\"")
    let catalog = try StringCatalog(bytes: Array(edited.utf8), path: "L.xcstrings")
    let result = try CatalogSync.sync(
      catalog,
      with: [
        Self.code("welcome", value: "Welcome aboard", line: 4),
        Self.code("welcome", value: "Hello", line: 8),
        Self.code("Done"), Self.code("Draft"), Self.code("Removed %lld"),
      ])
    #expect(
      result.diagnostics.map(\.description) == [
        "App.swift:8:5: warning: \"welcome\" has the default value \"Hello\" here and \"Welcome aboard\" at App.swift:4; the catalog keeps the first [conflicting-default-value]",
        "App.swift:4:5: note: \"welcome\": the catalog's en value \"Welcome\" was edited, so the code's default value \"Welcome aboard\" is not written",
      ])
    let entries = try Self.entries(result.bytes)
    let welcome = try #require(entries["welcome"]?["localizations"] as? [String: Any])
    #expect(
      (welcome["en"] as? [String: Any])?["stringUnit"] as? [String: String]
        == ["state": "translated", "value": "Welcome"])
  }

  @Test(
    "a key with an interpolation of a type not told (%@) is the catalog's key that differs only there"
  )
  func uncertainSpecifiers() throws {
    let text = """
      {
        "sourceLanguage" : "en",
        "strings" : {
          "%lld Solves" : {
            "localizations" : {
              "fr" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld résolutions"
                }
              }
            }
          },
          "+%lld" : {

          },
          "Phase %d of %1$@" : {

          },
          "Total %lld" : {

          },
          "Total %.2f" : {

          }
        },
        "version" : "1.0"
      }
      """
    let catalog = try StringCatalog(bytes: Array(text.utf8), path: "L.xcstrings")
    var solves = Self.code("%@ Solves", line: 3)
    solves.uncertainSpecifiers = true
    var plus = Self.code("+%@", line: 4)
    plus.uncertainSpecifiers = true
    var phase = Self.code("Phase %@ of %@", line: 5)
    phase.uncertainSpecifiers = true
    // Two catalog keys fit: neither is taken, the code's key is added.
    var total = Self.code("Total %@", line: 6)
    total.uncertainSpecifiers = true
    // Certain: a String really is %@, so a new key.
    let named = Self.code("%@ Solves", line: 7)
    let result = try CatalogSync.sync(catalog, with: [solves, plus, phase, total])
    #expect(
      result.changes.map(\.description) == [
        "removed \"Total %.2f\" (no longer in the code, never translated)", "added \"Total %@\"",
        "removed \"Total %lld\" (no longer in the code, never translated)",
      ], "\(result.changes)")
    #expect(
      result.diagnostics.map(\.description).sorted() == [
        "App.swift:3:5: note: \"%@ Solves\" taken as the catalog's \"%lld Solves\": an interpolation's type could not be told here",
        "App.swift:4:5: note: \"+%@\" taken as the catalog's \"+%lld\": an interpolation's type could not be told here",
        "App.swift:5:5: note: \"Phase %@ of %@\" taken as the catalog's \"Phase %d of %1$@\": an interpolation's type could not be told here",
      ], "\(result.diagnostics)")
    let certain = try CatalogSync.sync(catalog, with: [named, plus, phase])
    #expect(certain.changes.contains(.added(key: "%@ Solves")))
    #expect(certain.changes.contains(.madeStale(key: "%lld Solves")))

    #expect(FormatKeyPattern.matches(code: "100%% of %@", catalog: "100%% of %lld"))
    #expect(!FormatKeyPattern.matches(code: "100%% of %@", catalog: "100% of %lld"))
    #expect(FormatKeyPattern.matches(code: "%@", catalog: "%1$.2lf"))
    #expect(!FormatKeyPattern.matches(code: "%@ items", catalog: "%lld item"))
    #expect(!FormatKeyPattern.matches(code: "a%@", catalog: "a%"))
  }

  /// Every catalog of the corpus, as Xcode last wrote it: written again it keeps every byte,
  /// and synced with the keys it has live, nothing changes.
  @Test(
    "each corpus catalog is written again byte for byte, and syncs to itself",
    .enabled(if: Corpus.isPresent, Corpus.reason(".")))
  func corpusCatalogs() throws {
    let locations = try TableDiscovery.tables(
      in: ["icecubes-xcstrings", "xcstrings-tool-fixtures", "xcstrings-tool-package"]
        .filter(Corpus.has).map { Corpus.path($0) }
    ).filter { $0.kind == .catalog }
    #expect(locations.count >= 12)
    for location in locations {
      let catalog = try StringCatalog(contentsOfFile: location.path)
      let (root, _) = try CatalogJSON.read(catalog)
      let written = try CatalogJSON.bytes(root, like: catalog.contents, path: location.path)
      #expect(written == catalog.contents, "\(location.path)")

      var code: [CatalogSync.CodeString] = []
      for (key, entry) in catalog.strings {
        switch entry.extractionState {
        case "manual", "stale", "migrated": continue
        case "extracted_with_value":
          let value = entry.localizations[catalog.sourceLanguage]?.stringUnit?.value
          code.append(Self.code(key, value: value, comment: entry.comment))
        default: code.append(Self.code(key, comment: entry.comment))
        }
      }
      let result = try CatalogSync.sync(catalog, with: code)
      #expect(result.changes.isEmpty, "\(location.path): \(result.changes.prefix(3))")
      #expect(result.bytes == catalog.contents)
    }
  }

  @Test(".strings tables: new keys appended in the file's encoding, nothing else touched")
  func stringsTable() throws {
    let text = "/* Title */\n\"Inbox\" = \"Inbox\";\n\"Old\" = \"Old\";"
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    let file = try StringsFile(bytes: bytes, path: "en.lproj/Localizable.strings")
    let result = try StringsTableSync.sync(
      file, bytes: bytes,
      with: [
        Self.code("Inbox"), Self.code("%lld unread", comment: "Badge */ end"),
        Self.code("Ünïcødé 日本"),
      ])
    #expect(result.changes.map(\.description) == ["added \"%lld unread\"", "added \"Ünïcødé 日本\""])
    #expect(
      result.diagnostics.map(\.description) == [
        "en.lproj/Localizable.strings:3:1: note: \"Old\" is no longer used by the code; kept"
      ])
    #expect(Array(result.bytes.prefix(bytes.count)) == bytes)
    let read = try #require(
      try PropertyListSerialization.propertyList(from: Data(result.bytes), format: nil)
        as? [String: String])
    #expect(
      read == [
        "Inbox": "Inbox", "Old": "Old", "%lld unread": "%lld unread", "Ünïcødé 日本": "Ünïcødé 日本",
      ])
  }
}

import BundleKitPropertyList
import BundleKitTestSupport
import Testing

@testable import BundleKitVersioning

/// What `bump` runs for every file it finds and edits, on the bytes in place: the test-bundle
/// rule against the `split` it replaced, and the XML value locator against the property-list
/// parser, on seeded random documents.
struct LocatorBytesTests {
  /// `isTestBundle` as it was: every component split out, then compared from its end.
  static func isTestBundleBySplitting(_ path: String) -> Bool {
    path.utf8.split(separator: UInt8(ascii: "/")).contains { component in
      ["Tests", "Tests-Info.plist"].contains {
        component.reversed().starts(with: $0.utf8.reversed())
      }
    }
  }

  @Test("isTestBundle: a component ending in Tests or Tests-Info.plist, as splitting finds it")
  func testBundleAsSplitting() {
    let seed = SeededGenerator.seed("LocatorBytesTests.testBundleAsSplitting")
    var generator = SeededGenerator(seed: seed)
    let parts = [
      "", "App", "Tests", "AppTests", "UITests", "Test", "Testsx", "Tests-Info.plist",
      "AppTests-Info.plist", "Info.plist", "sts", "é", "日本Tests", "a b",
    ]
    for round in 0..<5_000 {
      let path = generator.path(of: parts)
      #expect(
        InfoPlistDiscovery.isTestBundle(path) == Self.isTestBundleBySplitting(path),
        "round \(round) (seed \(seed)): \(path)")
    }
    #expect(InfoPlistDiscovery.isTestBundle("App/AppTests/Info.plist"))
    #expect(InfoPlistDiscovery.isTestBundle("App/AppTests-Info.plist"))
    #expect(InfoPlistDiscovery.isTestBundle("Tests"))
    #expect(!InfoPlistDiscovery.isTestBundle("App/Testsuite/Info.plist"))
    #expect(!InfoPlistDiscovery.isTestBundle(""))
  }

  /// Text escaped as a property-list writer may write it: `&amp;`, `&lt;`, numeric
  /// references, or plain.
  static func escaped(_ text: String, _ generator: inout SeededGenerator) -> String {
    var result = ""
    for character in text {
      switch (character, generator.next() % 4) {
      case ("&", _): result += "&amp;"
      case ("<", _): result += "&lt;"
      case (_, 0) where character.isASCII:
        result += "&#\(character.unicodeScalars.first?.value ?? 0);"
      case (_, 1) where character.isASCII:
        result += "&#x\(String(character.unicodeScalars.first?.value ?? 0, radix: 16));"
      default: result.append(character)
      }
    }
    return result
  }

  /// A top-level XML dictionary of random entries: keys plain or escaped, comments between
  /// them, values that are strings (some empty, some `<string/>`), numbers, and nested
  /// dictionaries and arrays that hold the same keys.
  static func randomDocument(_ generator: inout SeededGenerator) -> String {
    let keys = ["CFBundleVersion", "CFBundleShortVersionString", "CFBundleName", "Other & more"]
    let texts = ["1", "2.7.0", "", "a & b < c", "é 日本", "4.2.1-beta"]
    var body = ""
    for key in keys where generator.next() % 4 != 0 {
      if generator.next() % 3 == 0 { body += "  <!-- <key>\(key)</key><string>no</string> -->\n" }
      body += "  <key>\(escaped(key, &generator))</key>"
      body += generator.next() % 2 == 0 ? " " : "\n  "
      switch generator.next() % 6 {
      case 0: body += "<string/>"
      case 1: body += "<integer>\(generator.next() % 100)</integer>"
      case 2:
        body += "<dict><key>CFBundleVersion</key><string>nested</string></dict>"
      case 3: body += "<array><string>\(texts[1])</string></array>"
      default:
        let text = texts[Int(generator.next() % UInt64(texts.count))]
        body += "<string>\(escaped(text, &generator))</string>"
      }
      body += "\n"
    }
    let doctype =
      generator.next() % 2 == 0
      ? "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
      : ""
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\(doctype)<plist version=\"1.0\">\n<dict>\n"
      + body + "</dict>\n</plist>\n"
  }

  @Test("XMLValueLocator: each top-level value where the parser reads it, on random documents")
  func locatorAgreesWithParser() throws {
    let seed = SeededGenerator.seed("LocatorBytesTests.locatorAgreesWithParser")
    var generator = SeededGenerator(seed: seed)
    var located = 0
    for round in 0..<2_000 {
      let text = Self.randomDocument(&generator)
      let bytes = Array(text.utf8)
      let document = try PropertyListDocument(bytes: bytes)
      let place = "round \(round) (seed \(seed)):\n\(text)"
      for key in ["CFBundleVersion", "CFBundleShortVersionString", "Other & more", "Missing"] {
        let location = XMLValueLocator.locate(key, in: bytes)
        switch (document.value[key], location) {
        case (nil, nil): break
        case (.string(let value)?, .content(let range)?):
          let written = String(decoding: bytes[range], as: UTF8.self)
          let parsed = try PropertyListDocument(
            bytes: Array("<plist><string>\(written)</string></plist>".utf8))
          #expect(parsed.value == .string(value), "\(key) \(place)")
          located += 1
        case (.string(let value)?, .emptyElement(let range)?):
          #expect(value.isEmpty && bytes[range].elementsEqual("<string/>".utf8), "\(key) \(place)")
          located += 1
        case (let value?, .other?):
          if case .string = value { Issue.record("a string reported as other: \(key) \(place)") }
        default:
          Issue.record(
            "\(key): parsed \(String(describing: document.value[key])), located \(String(describing: location)) \(place)"
          )
        }
      }
    }
    #expect(located > 1_000, "too few strings located: \(located)")
  }
}

extension SeededGenerator {
  /// A path of up to four of `parts`, absolute or relative, with or without a trailing slash.
  mutating func path(of parts: [String]) -> String {
    var path = (0..<Int(next() % 5)).map { _ in
      parts[Int(next() % UInt64(parts.count))]
    }.joined(separator: "/")
    if next() % 3 == 0 { path = "/" + path }
    if next() % 3 == 0 { path += "/" }
    return path
  }
}

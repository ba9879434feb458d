import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// The libplist test data, with the outcomes libplist's own test drivers expect, and the
/// Cocoa-written files from CPython's plistlib tests.
@Suite(.enabled(if: Corpus.has("libplist-data"), Corpus.reason("libplist-data")))
struct CorpusTests {
  func read(_ relative: String) throws -> PropertyListValue {
    try PropertyListDocument(contentsOfFile: Corpus.path(relative)).value
  }

  @Test("off*/dictref* binaries (offset and reference sizes 1 to 8) equal offxml.plist")
  func offsetAndReferenceSizes() throws {
    let expected = try read("libplist-data/offxml.plist")
    let files = Corpus.files(in: "libplist-data").filter {
      let name = URL(fileURLWithPath: $0).lastPathComponent
      return (name.hasPrefix("off") || name.hasPrefix("dictref")) && name.hasSuffix(".bplist")
    }
    #expect(files.count == 16)
    for file in files {
      let document = try PropertyListDocument(contentsOfFile: file)
      #expect(document.format == .binary1)
      #expect(document.value == expected, "\(file)")
    }
  }

  @Test("signedunsigned: our writers give libplist's files byte for byte")
  func signedUnsigned() throws {
    let xmlBytes = try FileIO.read(Corpus.path("libplist-data/signedunsigned.plist"))
    let binaryBytes = try FileIO.read(Corpus.path("libplist-data/signedunsigned.bplist"))
    let fromXML = try PropertyListValue(bytes: xmlBytes)
    let fromBinary = try PropertyListValue(bytes: binaryBytes)
    #expect(fromXML == fromBinary)
    #expect(try fromXML.encoded(as: .binary1) == binaryBytes)
    #expect(try fromBinary.encoded(as: .xml1) == xmlBytes)
    #expect(
      fromXML
        == [
          .int(-1), .integer(PropertyListInteger(UInt64.max)), .int(Int64.max), .int(Int64.min),
          .integer(PropertyListInteger(UInt64(Int64.max) + 1)),
        ])
  }

  @Test("signed.bplist and unsigned.bplist match their XML")
  func signedAndUnsigned() throws {
    #expect(try read("libplist-data/signed.bplist") == read("libplist-data/signed.plist"))
    #expect(try read("libplist-data/unsigned.bplist") == read("libplist-data/unsigned.plist"))
    #expect(try read("libplist-data/unsigned.plist") == .integer(PropertyListInteger(UInt64.max)))
  }

  @Test("order.bplist keeps key order and equals order.plist")
  func order() throws {
    let value = try read("libplist-data/order.bplist")
    #expect(value == (try read("libplist-data/order.plist")))
    #expect(value.dictionaryValue?.keys.elementsEqual(["test", "foo"]) == true)
  }

  @Test("files libplist must refuse are refused with a located error")
  func refused() throws {
    for name in ["amp.plist", "invalid_tag.plist", "malformed_dict.bplist", "recursion.bplist"] {
      #expect(throws: PropertyListError.self, "\(name)") { try read("libplist-data/\(name)") }
    }
    do {
      _ = try read("libplist-data/amp.plist")
    } catch {
      #expect("\(error)".hasSuffix("amp.plist:3:18: error: EntityRef: expecting ';'"))
    }
    do {
      _ = try read("libplist-data/malformed_dict.bplist")
    } catch {
      #expect("\(error)".contains("keys must be strings"))
      #expect("\(error)".contains("byte offset"))
    }
  }

  @Test("entities, CDATA, empty keys and hex integers read as libplist expects")
  func textFeatures() throws {
    let entities = try read("libplist-data/entities.plist")
    #expect(entities["some test entitites"]?["copyright"] == "©")
    #expect(entities["some test entitites"]?["multiple entitites"] == "\u{2F20}\u{2F21}\u{2F22}")
    #expect(entities["one byte entity"]?["one byte entity with text before & after"] == "a@z")
    let cdata = try read("libplist-data/cdata.plist")
    #expect(cdata.dictionaryValue?.keys.first == "cdata&key")
    #expect(
      cdata["cdata&key"]?.stringValue?.hasPrefix("string with cdata content:  !\"#$%&'()*+,-./0123")
        == true)
    let empty = try read("libplist-data/empty_keys.plist")
    #expect(empty[""] == "empty key with comment")
    #expect(empty.dictionaryValue?.count == 1)
    #expect(try read("libplist-data/hex.plist") == .int(0x737_0955_1615))
  }

  @Test("JSON, OpenStep and strings files of libplist's tests")
  func otherFormats() throws {
    let minMax = try read("libplist-data/int64_min_max.json")
    #expect(minMax == ["INT64_MIN": .int(Int64.min), "INT64_MAX": .int(Int64.max)])
    let j1 = try read("libplist-data/j1.json")
    #expect(j1["more"]?["b"]?.arrayValue?.first?["c"] == .real(0.25))
    let o1 = try read("libplist-data/o1.ostep")
    // OpenStep has only strings: numbers read as text, as CoreFoundation reads them.
    #expect(o1["test"] == ["1", "1"])
    #expect(o1["more"]?["b"]?.arrayValue?.count == 2)
    let o2 = try read("libplist-data/o2.ostep")
    #expect(o2["Some String with Unicode entity"] == "Yeah check this: \u{1234} !!!")
    #expect(o2["Keys & \"entities\""] == "hello world & others <nodes> are fun!?'")
    let o3 = try read("libplist-data/o3.ostep")
    #expect(
      o3 == [
        ["AFirstKey": "A First Value", "ASecondKey": "A Second Value"],
        ["CFirstKey": "C First Value", "CSecondKey": "C Second Corrected Value"],
      ])
    let strings = try read("libplist-data/test.strings")
    #expect(strings["BAR"] == "Foo")
    #expect(strings["ENTRY1"] == "日本語")
    #expect(strings.dictionaryValue?.count == 12)
  }

  @Test("every readable corpus file survives a round trip through each format that can hold it")
  func roundTrips() throws {
    for file in Corpus.files(in: "libplist-data") where !file.hasSuffix("fuzz") {
      guard let value = try? PropertyListDocument(contentsOfFile: file).value else { continue }
      for format in PropertyListFormat.allCases {
        guard let bytes = try? value.encoded(as: format) else {
          #expect(
            format == .json || format == .openstep, "\(file) could not be written as \(format)")
          continue
        }
        let back = try PropertyListValue(bytes: bytes, format: format)
        if format == .openstep {
          #expect(
            back.sortedKeys.tagged == value.sortedKeys.tagged || value.containsNonString,
            "\(file) \(format)")
        } else {
          #expect(back == value, "\(file) via \(format)")
        }
      }
    }
  }

  @Test("uid.bplist holds a UID that survives binary and XML round trips")
  func uid() throws {
    let value = try read("libplist-data/uid.bplist")
    #expect(try PropertyListValue(bytes: value.encoded(as: .binary1)) == value)
    #expect(try PropertyListValue(bytes: value.encoded(as: .xml1)) == value)
    #expect(try PropertyListValue(bytes: XMLUID.bytes) == .uid(7))
  }

  enum XMLUID {
    static let bytes = Array(
      "<plist version=\"1.0\"><dict><key>CF$UID</key><integer>7</integer></dict></plist>".utf8)
  }

  @Test("fuzz crashers and leaks: an error or a correct value, never a crash or a hang")
  func fuzzFiles() throws {
    // Three inputs are valid property lists (the crash was in libplist, not in the data).
    let valid: [String: PropertyListValue] = [
      "clusterfuzz-testcase-minimized-jplist_fuzzer-5486807695884288": .int(3),
      "crash-348c909a0b3532977185f551eb5d2ed04e694883": [
        .int(-1), .integer(PropertyListInteger(UInt64.max)), .int(Int64.max), .int(Int64.min),
        .integer(PropertyListInteger(UInt64(Int64.max) + 1)),
      ],
    ]
    var checked = 0
    for folder in Corpus.files(in: "libplist-data/fuzz") {
      for file in Corpus.files(
        in: "libplist-data/fuzz/" + URL(fileURLWithPath: folder).lastPathComponent)
      {
        checked += 1
        let name = URL(fileURLWithPath: file).lastPathComponent
        do {
          let value = try PropertyListDocument(contentsOfFile: file).value
          #expect(valid[name] == value, "\(name) read without an error")
        } catch {
          #expect(valid[name] == nil, "\(name): \(error)")
          #expect("\(error)".contains("error: "))
          #expect("\(error)".contains(name))
        }
      }
    }
    #expect(checked == 64)
  }
}

extension PropertyListValue {
  /// Whether any value inside is something OpenStep cannot hold as itself.
  var containsNonString: Bool {
    switch self {
    case .string, .data: false
    case .array(let items): items.contains(where: \.containsNonString)
    case .dictionary(let dictionary): dictionary.values.contains(where: \.containsNonString)
    default: true
    }
  }
}

/// The Cocoa-written files from CPython's plistlib tests (in the repository's corpus subset).
@Suite(.enabled(if: Corpus.has("cpython-plistlib"), Corpus.reason("cpython-plistlib")))
struct CocoaBytesTests {
  @Test("Cocoa's own XML and binary files: read either, write the same format, get the same bytes")
  func cocoaBytes() throws {
    let xml = try FileIO.read(Corpus.path("cpython-plistlib/apple-generated.plist"))
    let binary = try FileIO.read(Corpus.path("cpython-plistlib/apple-generated.bplist"))
    let fromXML = try PropertyListValue(bytes: xml)
    let fromBinary = try PropertyListValue(bytes: binary)
    #expect(fromXML == fromBinary)
    #expect(try fromXML.encoded(as: .xml1) == xml)
    #expect(try fromBinary.encoded(as: .binary1) == binary)
    #expect(try fromBinary.encoded(as: .xml1) == xml)
    #expect(fromXML["aBigInt2"] == .integer(PropertyListInteger(UInt64(9_223_372_036_854_775_852))))
    #expect(fromXML["aDate"] == .date(Date(timeIntervalSince1970: 1_098_786_813)))
  }
}

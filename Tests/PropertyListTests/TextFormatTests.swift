import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// XML, OpenStep and JSON: Apple's formatting, escapes, and errors with line and column.
struct TextFormatTests {
  func xml(_ body: String) -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      \(body)
      </plist>

      """.utf8)
  }

  func error(_ bytes: [UInt8], format: PropertyListFormat? = nil) -> String {
    do {
      let value = try PropertyListValue(bytes: bytes, format: format)
      return "no error: \(value)"
    } catch {
      return "\(error)"
    }
  }

  @Test("XML writer: Apple's layout for every type")
  func xmlLayout() throws {
    let value: PropertyListValue = [
      "string": "a < b & c > d", "integer": -42, "real": 0.1, "true": true, "false": false,
      "date": .date(Date(timeIntervalSince1970: 0)), "data": .data(Data("hello".utf8)),
      "empty array": [], "empty dict": [:], "nested": ["x": [1, "two"]],
    ]
    let text = String(decoding: try value.encoded(as: .xml1), as: UTF8.self)
    #expect(
      text
        == String(
          decoding: xml(
            """
            <dict>
            \t<key>string</key>
            \t<string>a &lt; b &amp; c &gt; d</string>
            \t<key>integer</key>
            \t<integer>-42</integer>
            \t<key>real</key>
            \t<real>0.1</real>
            \t<key>true</key>
            \t<true/>
            \t<key>false</key>
            \t<false/>
            \t<key>date</key>
            \t<date>1970-01-01T00:00:00Z</date>
            \t<key>data</key>
            \t<data>
            \taGVsbG8=
            \t</data>
            \t<key>empty array</key>
            \t<array/>
            \t<key>empty dict</key>
            \t<dict/>
            \t<key>nested</key>
            \t<dict>
            \t\t<key>x</key>
            \t\t<array>
            \t\t\t<integer>1</integer>
            \t\t\t<string>two</string>
            \t\t</array>
            \t</dict>
            </dict>
            """), as: UTF8.self))
  }

  @Test("XML: carriage returns survive, control characters are refused with their key path")
  func xmlEscapes() throws {
    let value: PropertyListValue = ["a": "line\r\nnext\ttab"]
    #expect(try PropertyListValue(bytes: value.encoded(as: .xml1)) == value)
    let bad: PropertyListValue = ["outer": ["in.ner": ["ok", "bell\u{7}"]]]
    #expect(throws: PropertyListError.self) { try bad.encoded(as: .xml1) }
    do {
      _ = try bad.encoded(as: .xml1)
    } catch {
      #expect(
        "\(error)"
          == "error: XML cannot carry the control character U+0007 in a string (at key path 'outer.in\\.ner.1')"
      )
    }
  }

  @Test("XML reader: entities, character references, CDATA, comments, UTF-16 input")
  func xmlReader() throws {
    let value = try PropertyListValue(
      bytes: xml(
        "<dict><key>a&amp;b</key><string>&lt;&#x41;&#66;<![CDATA[<&>]]><!-- c --></string><key>n</key><integer> 0x10 </integer><key>r</key><real>-inf</real><key>d</key><date>2024-02-29T23:59:59Z</date></dict>"
      ))
    #expect(value["a&b"] == "<AB<&>")
    #expect(value["n"] == 16)
    #expect(value["r"] == .real(-.infinity))
    #expect(value["d"] == .date(Date(timeIntervalSince1970: 1_709_251_199)))
    // UTF-16 with a byte-order mark.
    var utf16: [UInt8] = [0xFF, 0xFE]
    for unit in "<plist version=\"1.0\"><string>é</string></plist>".utf16 {
      utf16 += [UInt8(truncatingIfNeeded: unit), UInt8(truncatingIfNeeded: unit >> 8)]
    }
    #expect(try PropertyListValue(bytes: utf16) == "é")
  }

  @Test("XML reader: no external entities, no network, no undefined entities")
  func xmlSafety() {
    let external = Array(
      """
      <?xml version="1.0"?>
      <!DOCTYPE plist [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
      <plist version="1.0"><string>&xxe;</string></plist>
      """.utf8)
    #expect(error(external).contains("error:"))
    #expect(!error(external).contains("root:"))
    let expansion = Array(
      """
      <?xml version="1.0"?>
      <!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
      <plist version="1.0"><string>&b;</string></plist>
      """.utf8)
    #expect(error(expansion).contains("error:"))
  }

  @Test("XML reader: structural errors name line and column")
  func xmlErrors() {
    #expect(
      error(xml("<dict>\n<key>a</key>\n</dict>")) == "<input>:6:8: error: key 'a' has no value")
    #expect(error(xml("<dict>\n<string>x</string>\n</dict>")).hasPrefix("<input>:5:"))
    #expect(
      error(xml("<dict>\n<string>x</string>\n</dict>")).contains(
        "<string> in a <dict> must follow a <key>"))
    #expect(error(xml("<integer>12x</integer>")).contains("invalid <integer> '12x'"))
    #expect(error(xml("<integer>99999999999999999999</integer>")).contains("invalid <integer>"))
    #expect(error(xml("<date>yesterday</date>")).contains("invalid <date>"))
    #expect(error(xml("<data>@@@@</data>")).contains("invalid base64"))
    #expect(error(xml("<foo/>")).contains("unknown element <foo>"))
    #expect(error(xml("<true>x</true>")).contains("<true> must be empty"))
    #expect(error(xml("<string>a</string><string>b</string>")).contains("more than one value"))
    #expect(error(xml("<array><string>a</array>")).contains("error:"))
    #expect(error(xml("")).contains("<plist> holds no value"))
    #expect(error([]) == "<input>:1:1: error: empty file: no property list")
  }

  /// Found by hand: 200,000 nested <array>s parsed (the reader keeps its own stack) and
  /// then overflowed the stack when the value was freed.
  @Test("every text reader takes nesting 512 deep and refuses far deeper, without a crash")
  func deepNesting() throws {
    func nested(_ depth: Int, _ open: String, _ close: String) -> String {
      String(repeating: open, count: depth) + String(repeating: close, count: depth)
    }
    for depth in [512, 600, 200_000] {
      let dictionaries =
        String(repeating: "<dict><key>k</key>", count: depth - 1) + "<dict/>"
        + String(repeating: "</dict>", count: depth - 1)
      let inputs = [
        xml(nested(depth, "<array>", "</array>")),
        xml(dictionaries),
        Array(nested(depth, "[", "]").utf8),
        Array(nested(depth, "(", ")").utf8),
      ]
      for input in inputs {
        if depth == 512 {
          #expect(throws: Never.self) { try PropertyListValue(bytes: input) }
        } else {
          let message = error(input)
          #expect(message.contains("nesting deeper than 512 levels"), "\(message.prefix(200))")
        }
      }
    }
  }

  @Test("OpenStep: CoreFoundation's escapes, unquoted strings, data, comments, strings files")
  func openStep() throws {
    let text = #"""
      // comment
      {
        unquoted = some/path.value-1;
        "escapes" = "a\n\t\"q\" \\ \101\U00e9\UD83D\UDE00\u00e9\z";
        'single' = 'it\'s';
        data = <0001 ff>;
        list = (one, "two", );
        /* block */ nested = { k = v; };
        short;
      }
      """#
    let value = try PropertyListValue(bytes: Array(text.utf8))
    #expect(value["unquoted"] == "some/path.value-1")
    #expect(value["single"] == "it's")
    #expect(value["escapes"] == "a\n\t\"q\" \\ Aé😀u00e9z")
    #expect(value["data"] == .data(Data([0, 1, 255])))
    #expect(value["list"] == ["one", "two"])
    #expect(value["nested"] == ["k": "v"])
    #expect(value["short"] == "short")
    // A strings file: pairs without braces.
    #expect(
      try PropertyListValue(bytes: Array("a = b;\n\"c\" = \"d\";".utf8)) == ["a": "b", "c": "d"])
  }

  @Test("OpenStep: errors with line and column; numbers cannot be written")
  func openStepErrors() {
    #expect(
      error(Array("{\n  a = b\n}".utf8), format: .openstep)
        == "<input>:3:1: error: expected ';' after the value of 'a', found '}'")
    #expect(
      error(Array("(a, b".utf8), format: .openstep)
        == "<input>:1:6: error: expected ',' or ')' in array, found end of file")
    #expect(
      error(Array("{ a = \"b; }".utf8), format: .openstep).contains("unterminated quoted string"))
    #expect(error(Array("{ a = <0g>; }".utf8), format: .openstep).contains("in <hex data>"))
    #expect(error(Array("/* open".utf8), format: .openstep).contains("unterminated /* comment"))
    let value: PropertyListValue = ["list": ["a", 1]]
    do {
      _ = try value.encoded(as: .openstep)
      Issue.record("wrote an integer to OpenStep")
    } catch {
      #expect(
        "\(error)" == "error: openstep format cannot hold a integer value (at key path 'list.1')")
    }
  }

  @Test("OpenStep writer: quotes only when needed, reads back")
  func openStepWriter() throws {
    let value: PropertyListValue = [
      "plain": "abc", "needs quotes": "a b\n\"c\"", "": "", "data": .data(Data([1, 2, 3, 4, 5])),
      "list": ["x", ["y": "z"]],
    ]
    let text = String(decoding: try value.encoded(as: .openstep), as: UTF8.self)
    #expect(text.contains("plain = abc;"))
    #expect(text.contains("\"needs quotes\" = \"a b\\n\\\"c\\\"\";"))
    #expect(text.contains("data = <01020304 05>;"))
    #expect(try PropertyListValue(bytes: Array(text.utf8), format: .openstep) == value)
  }

  @Test("JSON: full 64-bit range, reals, escapes, and clear errors")
  func json() throws {
    let text =
      #"{"big": 18446744073709551615, "min": -9223372036854775808, "r": 1.5e3, "s": "\u00e9\ud83d\ude00\n", "a": [true, false]}"#
    let value = try PropertyListValue(bytes: Array(text.utf8))
    #expect(value["big"] == .integer(PropertyListInteger(UInt64.max)))
    #expect(value["min"] == .int(Int64.min))
    #expect(value["r"] == .real(1500))
    #expect(value["s"] == "é😀\n")
    #expect(try PropertyListValue(bytes: value.encoded(as: .json), format: .json) == value)
    #expect(
      error(Array(#"{"a": null}"#.utf8)) == "<input>:1:7: error: null has no property-list form")
    #expect(
      error(Array("{\"a\": 1,\n\"b\" 2}".utf8), format: .json)
        == "<input>:2:5: error: expected ':' after key \"b\", found '2'")
    #expect(error(Array("[18446744073709551616]".utf8)).contains("outside the 64-bit range"))
    let dated: PropertyListValue = ["when": .date(Date())]
    #expect(throws: PropertyListError.self) { try dated.encoded(as: .json) }
  }

  @Test("JSON and OpenStep: bytes that are not UTF-8 are an error at their line and column")
  func invalidUTF8() {
    // CoreFoundation refuses them, and Python's json too; replacing them with U+FFFD would
    // make a key that is never found.
    let json = Array("{\n  \"k\u{e9}y\": 1\n}".utf8).replacing([0xC3, 0xA9], with: [0xE9])
    #expect(
      error(json, format: .json).hasPrefix("<input>:2:5: error:"), "\(error(json, format: .json))")
    let openStep = Array("{\n a = \"x\";\n b = \"\u{e9}\";\n}".utf8).replacing(
      [0xC3, 0xA9], with: [0xFF])
    #expect(
      error(openStep, format: .openstep).hasPrefix("<input>:3:7: error:"),
      "\(error(openStep, format: .openstep))")
  }

  @Test("format detection")
  func detection() {
    #expect(PropertyListFormat.detect(Array("bplist00".utf8)) == .binary1)
    #expect(PropertyListFormat.detect(Array("\u{FEFF}<?xml".utf8)) == .xml1)
    #expect(PropertyListFormat.detect(Array("  {\"a\": 1}".utf8)) == .json)
    #expect(PropertyListFormat.detect(Array("{ a = 1; }".utf8)) == .openstep)
    #expect(PropertyListFormat.detect(Array("{ \"a\" = 1; }".utf8)) == .openstep)
    #expect(PropertyListFormat.detect(Array("[1]".utf8)) == .json)
    #expect(PropertyListFormat.detect(Array("(1)".utf8)) == .openstep)
    #expect(PropertyListFormat.detect(Array("<00ff>".utf8)) == .openstep)
  }
}

import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

/// The `bundlekit plist` commands, run as a user runs them: the built executable, its exit
/// codes, its output and the files it leaves.
struct PlistCommandTests {
  func bundlekit(_ arguments: String...) throws -> CommandResult {
    try BundleKitTool.run(arguments)
  }

  let info: PropertyListValue = [
    "CFBundleIdentifier": "com.example.app",
    "CFBundleShortVersionString": "1.2.3",
    "CFBundleVersion": "41",
    "CFBundleURLTypes": [["CFBundleURLSchemes": ["app"]]],
    "Released": .date(Date(timeIntervalSince1970: 1_700_000_000)),
    "Icon": .data(Data([1, 2, 3])),
  ]

  func write(
    _ value: PropertyListValue, _ format: PropertyListFormat, in folder: TemporaryFolder,
    name: String = "Info.plist"
  ) throws -> String {
    let path = folder.file(name)
    try FileIO.writeAtomically(try value.encoded(as: format), to: path)
    return path
  }

  @Test("get prints scalars bare and follows plutil and PlistBuddy key paths")
  func get() throws {
    let folder = try TemporaryFolder()
    let path = try write(info, .binary1, in: folder)
    #expect(try bundlekit("plist", "get", path, "CFBundleShortVersionString").stdout == "1.2.3\n")
    #expect(
      try bundlekit("plist", "get", path, "CFBundleURLTypes.0.CFBundleURLSchemes.0").stdout
        == "app\n")
    #expect(
      try bundlekit("plist", "get", path, ":CFBundleURLTypes:0:CFBundleURLSchemes:0").stdout
        == "app\n")
    #expect(try bundlekit("plist", "get", path, "Released").stdout == "2023-11-14T22:13:20Z\n")
    #expect(try bundlekit("plist", "get", path, "Icon").stdout == "AQID\n")
    #expect(
      try bundlekit("plist", "get", path, "CFBundleURLTypes", "--format", "json").stdout.contains(
        "\"CFBundleURLSchemes\": ["))
    let missing = try bundlekit("plist", "get", path, "Nope")
    #expect(missing.status == 1)
    #expect(missing.stderr == "\(path): error: key path 'Nope': no such key\n")
  }

  @Test("print shows the whole file readably, or as JSON")
  func printCommand() throws {
    let folder = try TemporaryFolder()
    let path = try write(info, .xml1, in: folder)
    let text = try bundlekit("plist", "print", path)
    #expect(text.status == 0)
    #expect(text.stdout.hasPrefix("{\n  \"CFBundleIdentifier\" => \"com.example.app\"\n"))
    #expect(text.stdout.contains("      0 => \"app\""))
    let json = try bundlekit("plist", "print", path, "--format", "json")
    #expect(json.status == 1)  // dates and data have no JSON form
    #expect(json.stderr.contains("json format cannot hold a date value (at key path 'Released')"))
  }

  @Test("set keeps the format and the file mode, edits atomically, refuses bad values")
  func set() throws {
    let folder = try TemporaryFolder()
    for format in [PropertyListFormat.xml1, .binary1, .json] {
      var value = info
      if format == .json { value = ["CFBundleVersion": "41", "Nested": ["a": 1]] }
      let path = try write(value, format, in: folder, name: "Info-\(format).plist")
      chmod(path, 0o640)
      var run = try bundlekit("plist", "set", path, "CFBundleVersion", "42")
      #expect(run.status == 0, "\(run.stderr)")
      run = try bundlekit("plist", "set", path, "Count", "7", "--type", "integer")
      #expect(run.status == 0)
      let document = try PropertyListDocument(contentsOfFile: path)
      #expect(document.format == format)
      var expected = value
      try expected.setValue("42", at: PropertyListKeyPath("CFBundleVersion"))
      try expected.setValue(7, at: PropertyListKeyPath("Count"))
      #expect(document.value == expected)
      var status = stat()
      stat(path, &status)
      #expect(status.st_mode & 0o777 == 0o640)
      // A bad value is refused and the file is left byte for byte as it was.
      let before = try FileIO.read(path)
      run = try bundlekit("plist", "set", path, "Count", "seven", "--type", "integer")
      #expect(run.status == 1)
      #expect(run.stderr.contains("'seven' is not a valid integer"))
      run = try bundlekit("plist", "set", path, "Missing.deeper", "x")
      #expect(run.status == 1)
      #expect(run.stderr.contains("key path 'Missing': no such key"))
      #expect(try FileIO.read(path) == before)
    }
    // No temporary files are left behind.
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasPrefix(".")
    }
    #expect(leftovers.isEmpty)
  }

  @Test("set --type bool, real, date, data and json")
  func setTypes() throws {
    let folder = try TemporaryFolder()
    let path = try write(["a": 1], .xml1, in: folder)
    for (keyPath, text, type) in [
      ("b", "yes", "bool"), ("r", "2.5", "real"), ("d", "2024-01-02T03:04:05Z", "date"),
      ("x", "AQID", "data"), ("j", #"{"k": [1, "two"]}"#, "json"),
    ] {
      let run = try bundlekit("plist", "set", path, keyPath, text, "--type", type)
      #expect(run.status == 0, "\(type): \(run.stderr)")
    }
    let value = try PropertyListDocument(contentsOfFile: path).value
    #expect(value["b"] == true)
    #expect(value["r"] == 2.5)
    #expect(value["d"] == .date(Date(timeIntervalSince1970: 1_704_164_645)))
    #expect(value["x"] == .data(Data([1, 2, 3])))
    #expect(value["j"] == ["k": [1, "two"]])
  }

  @Test("remove deletes one value and keeps the rest")
  func remove() throws {
    let folder = try TemporaryFolder()
    let path = try write(info, .binary1, in: folder)
    #expect(try bundlekit("plist", "remove", path, "CFBundleURLTypes.0").status == 0)
    #expect(try PropertyListDocument(contentsOfFile: path).value["CFBundleURLTypes"] == [])
    let run = try bundlekit("plist", "remove", path, "CFBundleURLTypes.0")
    #expect(run.status == 1)
  }

  @Test("convert between every format, in place or to a file or standard output")
  func convert() throws {
    let folder = try TemporaryFolder()
    let value: PropertyListValue = ["name": "x", "list": ["a", "b"]]
    let path = try write(value, .xml1, in: folder)
    for format in PropertyListFormat.allCases {
      #expect(try bundlekit("plist", "convert", path, "--format", format.rawValue).status == 0)
      let document = try PropertyListDocument(contentsOfFile: path)
      #expect(document.format == format)
      #expect(document.value == value)
    }
    let out = try bundlekit("plist", "convert", path, "--format", "json", "-o", "-", "--compact")
    #expect(out.stdout == #"{"name":"x","list":["a","b"]}"# + "\n")
    // Unrepresentable values: an error, and the file is untouched.
    let dated = try write(info, .xml1, in: folder, name: "dated.plist")
    let before = try FileIO.read(dated)
    let run = try bundlekit("plist", "convert", dated, "--format", "openstep")
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "\(dated): error: openstep format cannot hold a date value (at key path 'Released')\n")
    #expect(try FileIO.read(dated) == before)
  }

  @Test(
    "convert XML to binary: plistlib reads the plain road's and libxml2's output as the XML; a bad file is named at its line and nothing is written"
  )
  func convertXMLToBinary() throws {
    let folder = try TemporaryFolder()
    // Plain XML (the road that builds no tree), and XML only libxml2 reads (CDATA, a
    // carriage return): each converted, then compared by plistlib with the XML it came from.
    let plain = try write(info, .xml1, in: folder, name: "plain.plist")
    let cdata = folder.file("cdata.plist")
    try FileIO.writeAtomically(
      Array(
        "<?xml version=\"1.0\"?>\r\n<plist version=\"1.0\"><dict><key>a</key><string><![CDATA[x & y]]></string><key>b</key><array><string>x &amp; y</string><integer>7</integer></array></dict></plist>\n"
          .utf8), to: cdata)
    for path in [plain, cdata] {
      let out = path + ".bplist"
      let run = try bundlekit("plist", "convert", path, "--format", "binary1", "-o", out)
      #expect(run.status == 0, "\(run.stderr)")
      #expect(try FileIO.read(out).starts(with: Array("bplist00".utf8)))
      let same = try ReportFormatTests.pythonScript(
        "import plistlib,sys; print(plistlib.load(open(sys.argv[1],'rb')) == plistlib.load(open(sys.argv[2],'rb')))",
        [path, out])
      #expect(same == "True\n", "\(path)")
    }
    let bad = folder.file("bad.plist")
    try FileIO.writeAtomically(
      Array("<plist version=\"1.0\">\n<dict>\n<key>a</key>\n</dict>\n</plist>\n".utf8), to: bad)
    let run = try bundlekit("plist", "convert", bad, "--format", "binary1", "-o", folder.file("x"))
    #expect(run.status == 1)
    #expect(run.stderr == "\(bad):4:8: error: key 'a' has no value\n")
    #expect(!FileManager.default.fileExists(atPath: folder.file("x")))
  }

  @Test(
    "convert of a document over 8 MiB, restarted with the heap tuned: the same bytes as without the restart, read by plistlib as the XML; a bad one is named at its line"
  )
  func convertLargeDocument() throws {
    let folder = try TemporaryFolder()
    var entries: [(String, PropertyListValue)] = []
    for index in 0..<120_000 {
      entries.append(("key \(index) & more", .string("value \(index) <text>")))
      entries.append(("number \(index)", .integer(PropertyListInteger(Int64(index * 7)))))
    }
    let path = try write(
      .dictionary(.init(uniqueKeysWithValues: entries)), .xml1, in: folder, name: "large.plist")
    #expect(try FileIO.read(path).count > 8 << 20)
    let tool = try #require(BundleKitTool.path)
    var outputs: [[UInt8]] = []
    for environment in [[:], ["BUNDLEKIT_NO_HUGE_PAGES": "1"]] {
      let out = folder.file("large-\(outputs.count).bplist")
      let run = try Tool.run(
        tool, ["plist", "convert", path, "--format", "binary1", "-o", out], environment: environment
      )
      #expect(run.status == 0, "\(run.stderr)")
      outputs.append(try FileIO.read(out))
    }
    #expect(outputs[0] == outputs[1])
    let same = try ReportFormatTests.pythonScript(
      "import plistlib,sys; print(plistlib.load(open(sys.argv[1],'rb')) == plistlib.load(open(sys.argv[2],'rb')))",
      [path, folder.file("large-0.bplist")])
    #expect(same == "True\n")
    // Broken at its end: the restarted process still names the file, line and column.
    var bytes = try FileIO.read(path)
    let end = Array("</dict>\n</plist>\n".utf8)
    #expect(Array(bytes.suffix(end.count)) == end)
    bytes.removeLast(end.count)
    bytes += Array("<key>last</key>\n</dict>\n</plist>\n".utf8)
    try FileIO.writeAtomically(bytes, to: path)
    let lines = bytes.filter { $0 == UInt8(ascii: "\n") }.count
    let bad = try Tool.run(
      tool, ["plist", "convert", path, "--format", "binary1", "-o", folder.file("x")])
    #expect(bad.status == 1)
    #expect(bad.stderr == "\(path):\(lines - 1):8: error: key 'last' has no value\n")
    #expect(!FileManager.default.fileExists(atPath: folder.file("x")))
  }

  @Test("lint: OK lines, compiler-style errors, exit codes, JSON report")
  func lint() throws {
    let folder = try TemporaryFolder()
    let good = try write(info, .xml1, in: folder)
    let bad = folder.file("bad.plist")
    try FileIO.writeAtomically(
      Array("<plist version=\"1.0\">\n<dict>\n<key>a</key>\n</dict>\n</plist>\n".utf8), to: bad)
    var run = try bundlekit("plist", "lint", good)
    #expect(run.status == 0)
    #expect(run.stdout == "\(good): OK\n")
    run = try bundlekit("plist", "lint", good, bad)
    #expect(run.status == 1)
    #expect(run.stdout == "\(good): OK\n")
    #expect(run.stderr == "\(bad):4:8: error: key 'a' has no value\n")
    run = try bundlekit("plist", "lint", good, bad, "--format", "json")
    let report = try PropertyListValue(bytes: Array(run.stdout.utf8), format: .json)
    #expect(report.arrayValue?.count == 2)
    #expect(report.arrayValue?.first?["ok"] == true)
    #expect(report.arrayValue?.last?["ok"] == false)
    run = try bundlekit("plist", "lint", folder.file("absent.plist"))
    #expect(run.status == 1)
    #expect(run.stderr.contains("absent.plist: error: cannot open: No such file or directory"))
  }

  @Test("usage errors exit 2, help exits 0")
  func usage() throws {
    #expect(try bundlekit("plist", "get").status == 2)
    #expect(try bundlekit("plist", "convert", "x", "--format", "yaml").status == 2)
    #expect(try bundlekit("plist", "frobnicate").status == 2)
    let help = try bundlekit("plist", "--help")
    #expect(help.status == 0)
    #expect(help.stdout.contains("convert"))
  }
}

import BundleKitFileSystem
import BundleKitPropertyList
import Foundation

/// The `plist` suite: a 200,000-entry dictionary through BundleKit, Foundation's
/// PropertyListSerialization, the toolchain's plutil, Python's plistlib and libplist's
/// plistutil.
enum PlistSuite {
  static let entryCount = 200_000

  /// A dictionary with every scalar type and small nested collections, like a big Info.plist
  /// or a compiled strings table.
  static func makeValue() -> PropertyListValue {
    var dictionary = PropertyListDictionary(minimumCapacity: entryCount)
    let reference = Date(timeIntervalSinceReferenceDate: 700_000_000)
    for index in 0..<entryCount {
      let key = "key.\(index).CFBundleLocalizedString"
      let value: PropertyListValue
      switch index % 8 {
      case 0, 1: value = .string("Localized value number \(index), with some words")
      case 2: value = .string("Valeur localisée numéro \(index), élan")
      case 3: value = .int(index * 7919)
      case 4: value = .real(Double(index) * 0.25 + 0.125)
      case 5: value = .bool(index % 2 == 0)
      case 6: value = .date(reference.addingTimeInterval(Double(index)))
      default: value = .data(Data((0..<16).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0) }))
      }
      dictionary[key] = value
    }
    return .dictionary(dictionary)
  }

  static let pythonScript = """
    import plistlib, sys, time
    mode, path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = open(path, 'rb').read()
    value = plistlib.loads(data)
    def work():
        if mode == 'xml2bin': plistlib.dumps(plistlib.loads(data), fmt=plistlib.FMT_BINARY)
        elif mode == 'parse': plistlib.loads(data)
        elif mode == 'toxml': plistlib.dumps(value, fmt=plistlib.FMT_XML, sort_keys=False)
    work()
    times = []
    for _ in range(runs):
        t = time.perf_counter(); work(); times.append(time.perf_counter() - t)
    times.sort()
    print(times[len(times) // 2])
    """

  static func python(_ mode: String, _ path: String) -> Double? {
    guard let python = Bench.python3,
      let output = Bench.run(python, ["-c", pythonScript, mode, path, "5"])
    else { return nil }
    return Double(output.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  static func run() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("bundlekit-bench-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let value = makeValue()
    let xml = try value.encoded(as: .xml1)
    let binary = try value.encoded(as: .binary1)
    let xmlPath = "\(folder)/input.plist"
    let binaryPath = "\(folder)/input.bplist"
    try FileIO.writeAtomically(xml, to: xmlPath)
    try FileIO.writeAtomically(binary, to: binaryPath)
    let xmlData = Data(xml)
    let binaryData = Data(binary)
    print(
      "## plist: a \(entryCount)-entry dictionary (XML \(xml.count / 1024) KiB, binary \(binary.count / 1024) KiB)\n"
    )

    let plutil = Bench.which("plutil")
    let plistutil = Bench.which("plistutil")
    let out = "\(folder)/out"

    // XML to binary: what `plist convert` does, the plain road that builds no tree.
    guard PropertyListDocument.binary(convertingXML: xml) == binary else {
      throw BenchFailure(message: "the tree-free road wrote other bytes than the writer")
    }
    let oursXMLToBinary = Bench.median { _ = PropertyListDocument.binary(convertingXML: xml) }
    // Through the value tree, as an edit reads and writes.
    let oursXMLToBinaryViaValues = try Bench.median {
      _ = try PropertyListDocument(bytes: xml).value.encoded(as: .binary1)
    }
    let tool = Bench.bundlekit
    let oursCommand =
      FileManager.default.isExecutableFile(atPath: tool)
      ? Bench.medianProcess(tool, ["plist", "convert", xmlPath, "--format", "binary1", "-o", out])
      : nil
    let foundationXMLToBinary = try Bench.median {
      let object = try PropertyListSerialization.propertyList(from: xmlData, format: nil)
      _ = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
    }
    // Binary to values.
    let oursParse = try Bench.median { _ = try PropertyListDocument(bytes: binary) }
    let foundationParse = try Bench.median {
      _ = try PropertyListSerialization.propertyList(from: binaryData, format: nil)
    }
    // Values to XML.
    let oursToXML = try Bench.median { _ = try value.encoded(as: .xml1) }
    let foundationObject = try PropertyListSerialization.propertyList(from: binaryData, format: nil)
    let foundationToXML = try Bench.median {
      _ = try PropertyListSerialization.data(
        fromPropertyList: foundationObject, format: .xml, options: 0)
    }

    let rows = [
      Bench.Row(
        work: "XML to binary (no tree, in process)", ours: oursXMLToBinary,
        peers: [
          foundationXMLToBinary,
          plutil.flatMap { Bench.medianProcess($0, ["-convert", "binary1", "-o", out, xmlPath]) },
          python("xml2bin", xmlPath),
          plistutil.flatMap { Bench.medianProcess($0, ["-i", xmlPath, "-o", out, "-f", "bin"]) },
        ]),
      Bench.Row(
        work: "XML to binary through values", ours: oursXMLToBinaryViaValues,
        peers: [foundationXMLToBinary, nil, nil, nil],
        note: "what an edit does: the tree read, then written"),
      Bench.Row(
        work: "whole command: `bundlekit plist convert --format binary1`",
        ours: oursCommand ?? .nan,
        peers: [
          nil,
          plutil.flatMap { Bench.medianProcess($0, ["-convert", "binary1", "-o", out, xmlPath]) },
          nil,
          plistutil.flatMap { Bench.medianProcess($0, ["-i", xmlPath, "-o", out, "-f", "bin"]) },
        ],
        note: oursCommand == nil
          ? "build bundlekit too: " + Bench.buildHint
          : "both processes, start and write included"),
      Bench.Row(
        work: "binary to values", ours: oursParse,
        peers: [
          foundationParse,
          plutil.flatMap { Bench.medianProcess($0, ["-lint", binaryPath]) },
          python("parse", binaryPath),
          plistutil.flatMap {
            Bench.medianProcess($0, ["-i", binaryPath, "-o", "/dev/null", "-f", "bin"])
          },
        ],
        note: "plutil: -lint; plistutil: parse and write binary"),
      Bench.Row(
        work: "values to XML", ours: oursToXML,
        peers: [
          foundationToXML,
          plutil.flatMap { Bench.medianProcess($0, ["-convert", "xml1", "-o", out, binaryPath]) },
          python("toxml", binaryPath),
          plistutil.flatMap {
            Bench.medianProcess($0, ["-i", binaryPath, "-o", out, "-f", "xml"])
          },
        ],
        note: "plutil and plistutil: whole process, parse included"),
    ]
    Bench.printTable(
      title: "plist", peers: ["Foundation", "plutil", "plistlib", "plistutil"], rows: rows)

    // Output sizes for the same value.
    var sizes =
      "| binary output of the same value | bytes |\n|---|---:|\n| BundleKit | \(binary.count) |\n"
    let foundationBinary = try PropertyListSerialization.data(
      fromPropertyList: foundationObject, format: .binary, options: 0)
    sizes += "| Foundation | \(foundationBinary.count) |\n"
    if let plistutil, Bench.run(plistutil, ["-i", xmlPath, "-o", out, "-f", "bin"]) != nil,
      let size = try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int
    {
      sizes += "| plistutil | \(size) |\n"
    }
    if let python = Bench.python3,
      let size = Bench.run(
        python,
        [
          "-c",
          "import plistlib,sys; print(len(plistlib.dumps(plistlib.load(open(sys.argv[1],'rb')), fmt=plistlib.FMT_BINARY, sort_keys=False)))",
          xmlPath,
        ])
    {
      sizes += "| plistlib | \(size.trimmingCharacters(in: .whitespacesAndNewlines)) |\n"
    }
    print(sizes)
  }
}

/// A benchmark that found a wrong result: timing it would mean nothing.
struct BenchFailure: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

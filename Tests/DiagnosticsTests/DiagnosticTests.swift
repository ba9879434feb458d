import BundleKitArchiving
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitMorse
import BundleKitPropertyListCore
import BundleKitStringsTable
import BundleKitTestSupport
import BundleKitVersioning
import Foundation
import Testing

/// One model for every finding and error: compiler-style text, JSON, and every error type
/// of the libraries speaking it.
struct DiagnosticTests {
  @Test(
    "compiler-style text: the known parts of path:line:col, the rule when configurable, notes",
    arguments: [
      (
        Diagnostic.error("a.plist", line: 3, column: 7, "expected '>'"),
        "a.plist:3:7: error: expected '>'"
      ),
      (Diagnostic.error("a.plist", line: 3, "bad"), "a.plist:3: error: bad"),
      (Diagnostic.error("a.plist", column: 9, "bad"), "a.plist: error: bad"),
      (Diagnostic.error(nil, "no Info.plist found"), "error: no Info.plist found"),
      (
        Diagnostic(
          .warning, path: "Localizable.strings", line: 2, column: 1, "\"k\": %s",
          rule: .init(name: "unsafe-placeholder")),
        "Localizable.strings:2:1: warning: \"k\": %s [unsafe-placeholder]"
      ),
      (
        Diagnostic(
          .error, path: "x.strings", line: 1, "expected ';'",
          rule: .init(name: "syntax", isConfigurable: false)),
        "x.strings:1: error: expected ';'"
      ),
      (
        Diagnostic.error(
          "Base.xcconfig", line: 4, "CFBundleVersion (Release): bad",
          notes: ["resolved through: a", "  -> b"]),
        "Base.xcconfig:4: error: CFBundleVersion (Release): bad\n  resolved through: a\n    -> b"
      ),
      (Diagnostic(.note, path: "m.sqlite", "no key \"x\""), "m.sqlite: note: no key \"x\""),
    ])
  func text(diagnostic: Diagnostic, expected: String) {
    #expect(diagnostic.description == expected)
  }

  @Test("JSON: every field round-trips; Python's json reads it")
  func json() throws {
    let diagnostic = Diagnostic(
      .warning, path: "fr.lproj/Main.strings", line: 12, column: 4, "«clé» manquante",
      rule: .init(name: "missing-translation"), notes: ["en.lproj/Main.strings:3"])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = try encoder.encode(diagnostic)
    #expect(try JSONDecoder().decode(Diagnostic.self, from: data) == diagnostic)
    let python = try #require(
      Tool.path("python3"), "python3 is not on PATH: Scripts/bootstrap.sh --oracles installs it")
    let read = try Tool.run(
      python,
      [
        "-c",
        "import json,sys; d=json.load(sys.stdin); print(d['severity'], d['line'], d['column'], d['rule']['name'], d['message'])",
      ], input: data)
    #expect(
      String(decoding: read.stdout, as: UTF8.self)
        == "warning 12 4 missing-translation «clé» manquante\n", "\(read.stderr)")
  }

  @Test("severities order: note < warning < error")
  func order() {
    #expect(Diagnostic.Severity.allCases.sorted() == [.note, .warning, .error])
    #expect(Diagnostic.error("a", "b").with(severity: .warning).severity == .warning)
  }

  @Test("every library error speaks diagnostics, with its file, line and column")
  func libraryErrors() {
    let errors: [(any DiagnosticConvertible, String)] = [
      (
        PropertyListError.syntax(path: "Info.plist", line: 2, column: 5, message: "expected '>'"),
        "Info.plist:2:5: error: expected '>'"
      ),
      (
        PropertyListError.syntax(path: nil, line: 1, column: 1, message: "empty"),
        "<input>:1:1: error: empty"
      ),
      (
        FileSystemError.io(path: "/x", message: "Permission denied"), "/x: error: Permission denied"
      ),
      (
        VersioningError.notWritten(.io(path: "/y", message: "No space left on device")),
        "/y: error: No space left on device; no file was changed"
      ),
      (
        VersioningError.propertyList(.io(path: "z", message: "gone")), "z: error: gone"
      ),
      (
        ArchiveError.unsafeEntry(archive: "a.tar", entry: "../x", reason: "leaves the folder"),
        "a.tar: error: refused entry '../x': leaves the folder"
      ),
      (
        MorseInputError.unexpected(
          file: "<stdin>", line: 1, column: 4, found: "x", expected: "a dot"),
        "<stdin>:1:4: error: expected a dot, found 'x'"
      ),
      (
        DiagnosticsError([
          Diagnostic(.error, .syntax, "a.strings", line: 1, column: 2, "expected ';'"),
          Diagnostic(.warning, .emptyValue, "a.strings", line: 3, "\"k\" is empty"),
        ]),
        "a.strings:1:2: error: expected ';'\na.strings:3: warning: \"k\" is empty [empty-value]"
      ),
    ]
    for (error, expected) in errors {
      #expect(error.description == expected)
      #expect(Diagnostic.of(error) == error.diagnostics)
    }
    // Any other error still becomes one diagnostic.
    struct Other: Error, CustomStringConvertible { var description: String { "odd" } }
    #expect(Diagnostic.of(Other()) == [.error(nil, "odd")])
  }

  @Test("no error type in the sources is left out of the model")
  func everyErrorTypeConforms() throws {
    // Error types declared in the sources: each must conform to DiagnosticConvertible (a
    // private parse failure that never leaves its file is listed here on purpose).
    let internalOnly: Set<String> = ["SettingProblem", "SettingError", "Base64Error", "Malformed"]
    let root = Corpus.packageRoot
    var offenders: [String] = []
    for base in ["Sources", "Packages/BundleKitTranslate/Sources"] {
      let folder = root.appendingPathComponent(base).path
      guard let files = FileManager.default.enumerator(atPath: folder) else { continue }
      for case let file as String in files where file.hasSuffix(".swift") {
        let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
        for line in text.split(separator: "\n") {
          let words = line.split(whereSeparator: { " :,{<".contains($0) })
          guard let kind = words.firstIndex(where: { $0 == "enum" || $0 == "struct" }),
            kind + 1 < words.count, words.dropFirst(kind + 2).contains("Error")
          else { continue }
          let name = String(words[kind + 1])
          if !internalOnly.contains(name), !line.contains("DiagnosticConvertible") {
            offenders.append("\(base)/\(file): \(name)")
          }
        }
      }
    }
    #expect(offenders.isEmpty, "\(offenders)")
  }
}

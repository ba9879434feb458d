import ArgumentParser
import CommandLineTool
import Diagnostics
import FileSystem
import PropertyList
import StringsExtraction
import StringsTable

/// `bundlekit strings extract PATH... [--format text|json]`.
struct ExtractCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "extract",
    abstract: "List the localizable strings of Swift sources, as Xcode's extraction finds them.",
    discussion: """
      PATH may be .swift files or folders (searched, skipping .build, .git, DerivedData, Pods \
      and Carthage). Each string prints as file:line:col, its key (interpolations as the \
      specifiers Xcode writes: %lld, %@, %lf ...), table, default value and comment. An \
      interpolation whose type cannot be known is a warning naming the spelling that makes \
      it certain. The sources need not compile here.
      """
  )

  @Argument(help: "Swift files, or folders to search for them.")
  var paths: [String] = ["."]

  @OptionGroup var formatOptions: FormatOptions

  @Flag(help: "Fail (exit 1) when an interpolation's type is not known.")
  var strict = false

  func run() throws {
    var files: [(path: String, source: String)] = []
    var problems: [Diagnostic] = []
    for path in Self.swiftFiles(in: paths) {
      do {
        let bytes = try FileIO.read(path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
          problems.append(.error(path, "not UTF-8 text"))
          continue
        }
        files.append((path, text))
      } catch {
        problems += error.diagnostics
      }
    }
    if !problems.isEmpty { throw DiagnosticsError(problems) }
    let result = SwiftStringExtractor().extract(files)
    StandardStreams.report(result.diagnostics)
    switch formatOptions.format {
    case .text:
      var text = ""
      for string in result.strings {
        text += "\(string.file):\(string.line):\(string.column): \(Self.quoted(string.key))"
        if let table = string.table { text += " table \(table)" }
        if let value = string.defaultValue { text += " value \(Self.quoted(value))" }
        if let comment = string.comment { text += " // \(comment)" }
        text += "\n"
      }
      StandardStreams.writeToStandardOutput(Array(text.utf8))
      StandardStreams.printToStandardError(
        "\(result.strings.count) strings in \(files.count) Swift file\(files.count == 1 ? "" : "s")"
      )
    case .json:
      let rows = result.strings.map { string -> PropertyListValue in
        var row: PropertyListDictionary = [
          "key": .string(string.key), "file": .string(string.file), "line": .int(string.line),
          "column": .int(string.column), "source": .string(string.source),
          "table": .string(string.tableName),
        ]
        if let value = string.defaultValue { row["defaultValue"] = .string(value) }
        if let comment = string.comment { row["comment"] = .string(comment) }
        if let bundle = string.bundle { row["bundle"] = .string(bundle) }
        return .dictionary(row)
      }
      StandardStreams.writeToStandardOutput(try PropertyListValue.array(rows).encoded(as: .json))
    }
    if strict, !result.diagnostics.isEmpty { throw ExitCode(1) }
  }

  /// `"text"` with quotes, backslashes and line breaks escaped, as a key reads in a table.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for character in text {
      switch character {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      default: result.append(character)
      }
    }
    return result + "\""
  }

  /// The `.swift` files under `paths`, sorted.
  static func swiftFiles(in paths: [String]) -> [String] {
    var found: [String] = []
    for path in paths {
      if path.hasSuffix(".swift") {
        found.append(path)
        continue
      }
      DirectoryWalker.walk(path) { entry in
        if entry.isFolder { return SkippedFolders.skips(entry.name) ? .skip : .descend }
        if entry.name.hasSuffix(".swift"), entry.isDecodable {
          found.append(Paths.join(path, entry.relativePath))
        }
        return .descend
      }
    }
    return found.sorted()
  }
}

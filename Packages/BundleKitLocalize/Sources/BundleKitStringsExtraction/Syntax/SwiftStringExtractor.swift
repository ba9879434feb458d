import BundleKitDiagnostics
import SwiftOperators
import SwiftParser
import SwiftSyntax

/// Finds the localizable strings of a target's Swift sources, as Xcode's build does: the
/// literals passed as `LocalizedStringKey`, `LocalizedStringResource` or
/// `String.LocalizationValue` (SwiftUI's views and modifiers, Foundation's initialisers, and
/// the target's own functions taking them), with interpolations turned into the format
/// specifiers Xcode writes (`%lld`, `%@`, `%lf` ...).
///
/// The sources need not compile here (an iOS app imports UIKit): they are parsed, not type
/// checked. Types come from the target's declarations; where one cannot be known, the string
/// is still extracted (with `%@`) and a warning names the file, line and the spelling that
/// makes it certain.
public struct SwiftStringExtractor: Sendable {
  /// What an extraction found.
  public struct Result: Sendable {
    /// Every string, in file and line order.
    public var strings: [ExtractedString] = []
    /// Interpolations whose type could not be known, and files that could not be read.
    public var diagnostics: [Diagnostic] = []
  }

  /// Files larger than this are reported, not parsed.
  public var maximumFileSize = 8 << 20
  /// The most `[` in a row (white space aside) a file may have: swift-syntax's parser takes
  /// time exponential in it (its type lookahead: 24 took 2.8 s, 40 did not end) and overflows
  /// the stack past a few thousand, so such a file is reported, not parsed. Real code nests
  /// collection types and literals a handful deep.
  public var maximumBracketRun = 16

  /// An extractor.
  public init() {}

  /// Extracts from `files`: each a path (as reported) and its source text.
  public func extract(_ files: [(path: String, source: String)]) -> Result {
    var result = Result()
    var trees: [(path: String, tree: SourceFileSyntax)] = []
    var declarations = TargetDeclarations()
    for (path, source) in files {
      guard source.utf8.count <= maximumFileSize else {
        result.diagnostics.append(
          Diagnostic(
            .warning, path: path,
            "not read: \(source.utf8.count) bytes, over the \(maximumFileSize >> 20) MiB a Swift source may have here"
          ))
        continue
      }
      if let run = Self.longestBracketRun(source), run.count > maximumBracketRun {
        result.diagnostics.append(
          Diagnostic(
            .warning, path: path, line: run.line, column: run.column,
            "not read: \(run.count) '[' in a row, more than the \(maximumBracketRun) Swift's parser can take in reasonable time"
          ))
        continue
      }
      // Folded with the standard operators, so `a as Int`, `c ? a : b` and `0..<n` are
      // expressions of their own; a custom operator stays unfolded, which only loses a type.
      let parsed = Parser.parse(source: source)
      let tree =
        OperatorTable.standardOperators.foldAll(parsed) { _ in }.as(SourceFileSyntax.self)
        ?? parsed
      declarations.collect(tree)
      trees.append((path, tree))
    }
    for (path, tree) in trees {
      let visitor = ExtractionVisitor(
        path: path, tree: tree, declarations: declarations)
      visitor.walk(tree)
      result.strings += visitor.strings
      result.diagnostics += visitor.diagnostics
    }
    result.strings.sort { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
    return result
  }

  /// The longest run of `[` with only white space between, outside comments and string
  /// literals (skipped roughly: enough to keep a `"[[["` from counting), with where it
  /// starts; nil for none.
  static func longestBracketRun(_ source: String) -> (count: Int, line: Int, column: Int)? {
    var best: (count: Int, line: Int, column: Int)?
    var run = 0
    var runStart = (line: 1, column: 1)
    var line = 1
    var lineStart = 0
    let bytes = Array(source.utf8)
    var index = 0
    func skip(until terminator: [UInt8], escapes: Bool) {
      while index < bytes.count {
        if escapes, bytes[index] == UInt8(ascii: "\\") {
          index += 2
          continue
        }
        if bytes[index] == UInt8(ascii: "\n") {
          line += 1
          lineStart = index + 1
        }
        if bytes[index...].starts(with: terminator) {
          index += terminator.count
          return
        }
        index += 1
      }
    }
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "["):
        if run == 0 { runStart = (line, index - lineStart + 1) }
        run += 1
        if run > best?.count ?? 0 { best = (run, runStart.line, runStart.column) }
        index += 1
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
        index += 1
      case UInt8(ascii: "\n"):
        line += 1
        index += 1
        lineStart = index
      case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
        run = 0
        skip(until: [UInt8(ascii: "\n")], escapes: false)
      case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
        run = 0
        index += 2
        skip(until: Array("*/".utf8), escapes: false)
      case UInt8(ascii: "\""):
        run = 0
        if bytes[index...].starts(with: Array("\"\"\"".utf8)) {
          index += 3
          skip(until: Array("\"\"\"".utf8), escapes: true)
        } else {
          index += 1
          skip(until: [UInt8(ascii: "\"")], escapes: true)
        }
      default:
        run = 0
        index += 1
      }
    }
    return best
  }
}

import Diagnostics
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
}

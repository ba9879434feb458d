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
    /// The text of every string literal of the sources, localized or not, interpolations
    /// written `%@`: what a key the extraction did not find may still be in the code as
    /// (a `String` property Xcode's compiler sees as `LocalizedStringKey`), so sync never
    /// takes it for deleted.
    public var literals: Set<String> = []
  }

  /// Whether `source` spells one of the localized types (a cheap test before parsing).
  static func namesLocalizedType(_ source: String) -> Bool {
    source.contains("LocalizedStringKey") || source.contains("LocalizedStringResource")
      || source.contains("LocalizationValue")
  }

  /// Files larger than this are an error, not parsed: a source not read is a source whose
  /// strings `sync` would otherwise take for deleted.
  public var maximumFileSize = 8 << 20
  /// How deep a file's syntax may nest once operators are folded (a chain of 100,000 `+`
  /// folds into a tree 100,000 deep, as do `.bold()` chains and nested ternaries): walking
  /// deeper would overflow the stack, so such a file is an error at the place it gets too
  /// deep. Real code nests a few dozen levels.
  public var maximumNesting = 1_000
  /// The most `[` in a row (white space aside) a file may have: swift-syntax's parser takes
  /// time exponential in it (its type lookahead: 24 took 2.8 s, 40 did not end) and overflows
  /// the stack past a few thousand, so such a file is reported, not parsed. Real code nests
  /// collection types and literals a handful deep.
  public var maximumBracketRun = 16

  /// Property types declared outside Swift, by property name: the attributes of the
  /// target's Core Data models, whose classes Xcode generates (``CoreDataModel``).
  public var generatedProperties: [String: Set<String>] = [:]
  /// The same by class: each entity's attributes under its class name.
  public var generatedMembers: [String: [String: String]] = [:]

  /// Functions the project names in `LOCALIZED_STRING_MACRO_NAMES` beside
  /// `NSLocalizedString` (`MFLocalizedString`): a call to one is extracted as Xcode extracts
  /// `NSLocalizedString`'s (the key first, `tableName:`, `value:`, `comment:`).
  public var localizedFunctionNames: Set<String> = []

  /// An extractor.
  public init() {}

  /// Extracts from `files`: each a path (as reported) and its source text. `context` holds
  /// the sources of the modules `files` may call (local packages the target depends on):
  /// their public initialisers and functions with localized parameters are known, as Xcode's
  /// compiler knows them, and nothing is extracted from them.
  public func extract(
    _ files: [(path: String, source: String)],
    context: [(path: String, source: String)] = []
  ) -> Result {
    var result = Result()
    var trees: [(path: String, tree: SourceFileSyntax)] = []
    var declarations = TargetDeclarations()
    for (_, source) in context where source.utf8.count <= maximumFileSize {
      // Only a file that names a localized type can declare a parameter of one; the rest is
      // not parsed. A file the parser could not take in reasonable time is left out.
      guard Self.namesLocalizedType(source),
        (Self.longestBracketRun(source)?.count ?? 0) <= maximumBracketRun
      else { continue }
      let parsed = Parser.parse(source: source)
      guard Self.tooDeep(parsed, limit: maximumNesting) == nil else { continue }
      declarations.collectPublic(parsed)
    }
    for (name, types) in generatedProperties {
      declarations.properties[name, default: []].formUnion(types)
    }
    declarations.members = generatedMembers
    for (path, source) in files {
      guard source.utf8.count <= maximumFileSize else {
        result.diagnostics.append(
          Diagnostic(
            .error, path: path,
            "not read: \(source.utf8.count) bytes, over the \(maximumFileSize >> 20) MiB a Swift source may have here"
          ))
        continue
      }
      if let run = Self.longestBracketRun(source), run.count > maximumBracketRun {
        result.diagnostics.append(
          Diagnostic(
            .error, path: path, line: run.line, column: run.column,
            "not read: \(run.count) '[' in a row, more than the \(maximumBracketRun) Swift's parser can take in reasonable time"
          ))
        continue
      }
      // Folded with the standard operators, so `a as Int`, `c ? a : b` and `0..<n` are
      // expressions of their own; a custom operator stays unfolded, which only loses a type.
      let parsed = Parser.parse(source: source)
      if let deep = Self.tooDeep(parsed, limit: maximumNesting) {
        // Placed from the source's bytes: swift-syntax's location converter walks the tree
        // recursively, which is what overflows here.
        // At the statement that holds it, not 1,000 calls into its chain.
        var statement = deep
        while let parent = statement.parent, !parent.is(CodeBlockItemSyntax.self) {
          statement = parent
        }
        let place = Self.lineAndColumn(
          ofUTF8Offset: statement.positionAfterSkippingLeadingTrivia.utf8Offset, in: source)
        result.diagnostics.append(
          Diagnostic(
            .error, path: path, line: place.line, column: place.column,
            "not read: expressions nest more than \(maximumNesting) levels deep here (operators and calls chained), more than BundleKit walks"
          ))
        continue
      }
      let tree =
        OperatorTable.standardOperators.foldAll(parsed) { _ in }.as(SourceFileSyntax.self)
        ?? parsed
      declarations.collect(tree)
      trees.append((path, tree))
    }
    declarations.resolveDefaultsProperties()
    for (path, tree) in trees {
      let visitor = ExtractionVisitor(
        path: path, tree: tree, declarations: declarations,
        localizedFunctionNames: localizedFunctionNames)
      visitor.walk(tree)
      result.strings += visitor.strings
      result.diagnostics += visitor.diagnostics
      result.literals.formUnion(visitor.literals)
    }
    result.strings.sort { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
    return result
  }

  /// The first node at which `tree`, once its operator sequences are folded, would nest more
  /// than `limit` deep; nil when it stays within. Walked with a stack of its own (the tree
  /// may be too deep for recursion); a sequence of n elements folds n/2 deep, and a member
  /// or call chain is already as deep as it is long.
  static func tooDeep(_ tree: SourceFileSyntax, limit: Int) -> Syntax? {
    var pending: [(node: Syntax, depth: Int)] = [(Syntax(tree), 0)]
    while let (node, depth) = pending.popLast() {
      var next = depth + 1
      if let sequence = node.as(SequenceExprSyntax.self) { next += sequence.elements.count / 2 }
      if next > limit { return node }
      for child in node.children(viewMode: .sourceAccurate) { pending.append((child, next)) }
    }
    return nil
  }

  /// The 1-based line and byte column of `offset` in `source`.
  static func lineAndColumn(ofUTF8Offset offset: Int, in source: String) -> (
    line: Int, column: Int
  ) {
    var line = 1
    var lineStart = 0
    for (index, byte) in source.utf8.prefix(offset).enumerated() where byte == 0x0A {
      line += 1
      lineStart = index + 1
    }
    return (line, offset - lineStart + 1)
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

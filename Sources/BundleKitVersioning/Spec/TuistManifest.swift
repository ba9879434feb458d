import BundleKitFileSystem

/// A Tuist `Project.swift`, read for its versions without running it: the literal parts of
/// `Project(name:settings:targets:)` and of each `.target(name:product:infoPlist:settings:
/// dependencies:)` (or `Target(...)`): `.settings(base: [...], configurations: [...])`,
/// `.extendingDefault(with: [...])`, string literals and `.string("...")`.
///
/// A name bound at the top of the manifest (`let appTarget = Target(...)`, `private let
/// version = "1.2"`, `"\(version)"`) is read as its value, where Swift would see the same
/// value: a `let`, or a `var` the manifest never changes, declared before the use, whose
/// expression ends where its value does. Its literal is the one an edit changes.
///
/// Manifests are Swift: a value computed by code (a helper, a function, interpolation with
/// text around it) cannot be read here, and a target defined that way is reported, never
/// guessed.
struct TuistManifest {
  /// A token of Swift source: a string literal (its text and byte range, quotes included),
  /// an identifier, or one punctuation byte.
  enum Token: Equatable {
    case string(String, Range<Int>)
    case identifier(String)
    case punctuation(UInt8)
    /// A string with interpolation, or a multi-line one: not a literal value.
    case computed
  }

  let bytes: [UInt8]
  private(set) var tokens: [Token] = []
  /// For each token, whether it lies outside every `{ }` (top-level code, not a function's
  /// or a closure's body).
  private var isTopLevel: [Bool] = []
  /// The values of the names bound at the top, each read once in the order Swift binds
  /// them (so a name's value holds the values of the names before it), with the token of
  /// its name.
  private var bindings: [String: (declaredAt: Int, value: Value)] = [:]
  /// The tokens of each bound name's value.
  private var bindingSpans: [String: Range<Int>] = [:]
  /// The place of each string literal a bound name's value holds (by the offset of its
  /// first byte): `["let", name]`, or `["let", name, "2"]` for its third literal. Every
  /// target that reads the name reads the literal at that one place.
  private var homes: [Int: [String]] = [:]

  /// How deep calls and collections may nest.
  static let maximumDepth = 128

  init(bytes: [UInt8]) {
    self.bytes = bytes
    tokens = Self.tokens(bytes)
    var depth = 0
    isTopLevel = tokens.map { token in
      if token == .punctuation(0x7B) { depth += 1 }
      if token == .punctuation(0x7D) { depth = max(0, depth - 1) }
      return depth == 0 && token != .punctuation(0x7D)
    }
    for (name, declaredAt, start) in declarations() {
      var cursor = start
      let bound = value(&cursor)
      // `let v = "1" + suffix`, `let t = Target(...).with(...)`: the expression goes on past
      // the value read, so the name's value is not that.
      if cursor < tokens.count, Self.continuesExpression(tokens[cursor]) { continue }
      bindings[name] = (declaredAt, bound)
      bindingSpans[name] = start..<cursor
      // The manifest's `let project = Project(...)` keeps the places it always had.
      if case .call(let callee, _) = bound, callee == "Project" { continue }
      let literals = literalTokens(in: start..<cursor)
      for (ordinal, token) in literals.enumerated() {
        guard case .string(_, let range) = tokens[token] else { continue }
        homes[range.lowerBound] =
          literals.count == 1 ? ["let", name] : ["let", name, "\(ordinal)"]
      }
    }
  }

  /// The string literals among `span`'s tokens, in order.
  private func literalTokens(in span: Range<Int>) -> [Int] {
    span.filter { if case .string = tokens[$0] { true } else { false } }
  }

  /// The place of the literal at `range` when a bound name's value holds it: one place for
  /// every target that reads that name.
  func home(of range: Range<Int>) -> [String]? { homes[range.lowerBound] }

  /// The `let` and `var` declarations at the top of the manifest, in order: each name, the
  /// token of the name and the token where its value starts. A `var` the manifest changes
  /// anywhere (`settings["X"] = ...`, `targets.append(...)`, `&targets`) is left out.
  private func declarations() -> [(name: String, at: Int, value: Int)] {
    var found: [(name: String, at: Int, value: Int)] = []
    var variables: Set<String> = []
    var index = 0
    while index + 2 < tokens.count {
      defer { index += 1 }
      guard isTopLevel[index], case .identifier(let keyword) = tokens[index],
        keyword == "let" || keyword == "var",
        case .identifier(let name) = tokens[index + 1], !Self.keywords.contains(name)
      else { continue }
      guard let value = Self.valueStart(afterName: index + 1, in: tokens) else { continue }
      found.append((name, index + 1, value))
      if keyword == "var" { variables.insert(name) }
    }
    let changed = changedVariables(variables, declaredAt: Set(found.map(\.at)))
    return found.filter { !changed.contains($0.name) }
  }

  /// The `variables` the manifest does anything with but read, in one pass: a use must be
  /// followed by what ends a value (`,` `)` `]` `}` `:` or the next statement) and not
  /// follow `&`.
  private func changedVariables(_ variables: Set<String>, declaredAt: Set<Int>) -> Set<String> {
    var changed: Set<String> = []
    guard !variables.isEmpty else { return changed }
    for index in tokens.indices where !declaredAt.contains(index) {
      guard case .identifier(let name) = tokens[index], variables.contains(name) else { continue }
      if index > 0, tokens[index - 1] == .punctuation(0x2E) { continue }  // another's member
      if index > 0, tokens[index - 1] == .punctuation(0x26) {  // &name
        changed.insert(name)
        continue
      }
      guard index + 1 < tokens.count else { continue }
      switch tokens[index + 1] {
      case .punctuation(0x2C), .punctuation(0x29), .punctuation(0x5D), .punctuation(0x7D),
        .punctuation(0x3A), .identifier, .string, .computed:
        continue
      default:
        changed.insert(name)
      }
    }
    return changed
  }

  /// Words that are Swift's own, never a name the manifest binds.
  private static let keywords: Set<String> = [
    "let", "var", "func", "struct", "enum", "class", "extension", "import", "public", "private",
    "internal", "fileprivate", "static", "protocol", "typealias", "if", "guard", "return",
  ]
  /// What a written type holds: `[String: InfoPlist.Value]`, `Array<Target>`, `String?`.
  private static let typePunctuation: Set<UInt8> = [
    0x3A, 0x2E, 0x5B, 0x5D, 0x3C, 0x3E, 0x3F, 0x21, 0x2C, 0x28, 0x29, 0x26,
  ]

  /// Whether a token after a value continues its expression (an operator, a member, a call,
  /// a subscript, a cast) rather than starting the next statement.
  /// Where the value of a declaration whose name is token `name` starts: past its type, if
  /// written (`: [String: InfoPlist.Value]`), and `=`; nil when there is no value.
  private static func valueStart(afterName name: Int, in tokens: [Token]) -> Int? {
    var cursor = name + 1
    while cursor < tokens.count, tokens[cursor] != .punctuation(0x3D) {
      switch tokens[cursor] {
      case .identifier(let word) where !keywords.contains(word): cursor += 1
      case .punctuation(let byte) where typePunctuation.contains(byte): cursor += 1
      default: return nil
      }
    }
    return cursor + 1 < tokens.count ? cursor + 1 : nil
  }

  private static func continuesExpression(_ token: Token) -> Bool {
    switch token {
    case .punctuation(let byte): byte != 0x7D && byte != 0x3B
    case .identifier(let word): word == "as" || word == "is"
    case .string, .computed: false
    }
  }

  private static func tokens(_ bytes: [UInt8]) -> [Token] {
    var tokens: [Token] = []
    var index = 0
    var conditions = Conditions()
    func isIdentifier(_ byte: UInt8) -> Bool {
      (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
        || byte == 0x5F || byte >= 0x80
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x2F, index + 1 < bytes.count, bytes[index + 1] == 0x2F {
        while index < bytes.count, bytes[index] != 0x0A { index += 1 }
      } else if byte == 0x2F, index + 1 < bytes.count, bytes[index + 1] == 0x2A {
        // Swift's block comments nest: `/* /* */ Project(...) */` is all comment.
        var depth = 0
        repeat {
          if index + 1 < bytes.count, bytes[index] == 0x2F, bytes[index + 1] == 0x2A {
            depth += 1
            index += 2
          } else if index + 1 < bytes.count, bytes[index] == 0x2A, bytes[index + 1] == 0x2F {
            depth -= 1
            index += 2
          } else {
            index += 1
          }
        } while depth > 0 && index < bytes.count
      } else if byte == UInt8(ascii: "#"), let directive = Self.directive(bytes, at: index) {
        // `#if`: what the build sees. `true` and `false` are decided; any other condition
        // (DEBUG, os(...)) is not known here, so what it guards is computed, not read.
        index = directive.end
        conditions.apply(directive.kind, condition: directive.condition)
        continue
      } else if !conditions.isActive {
        // In a branch the build does not compile: skipped, strings and all.
        if byte == 0x22 {
          index += 1
          while index < bytes.count, bytes[index] != 0x22, bytes[index] != 0x0A {
            index += bytes[index] == 0x5C ? 2 : 1
          }
        }
        index += 1
        continue
      } else if conditions.isUnknown, byte != 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
        // Guarded by a condition only the build decides: nothing here is a literal.
        if tokens.last != .computed { tokens.append(.computed) }
        if byte == 0x22 {
          index += 1
          while index < bytes.count, bytes[index] != 0x22, bytes[index] != 0x0A {
            index += bytes[index] == 0x5C ? 2 : 1
          }
        }
        index += 1
        continue
      } else if byte == 0x22 {
        if index + 2 < bytes.count, bytes[index + 1] == 0x22, bytes[index + 2] == 0x22 {
          // A multi-line string: skipped whole.
          index += 3
          while index + 2 < bytes.count,
            !(bytes[index] == 0x22 && bytes[index + 1] == 0x22 && bytes[index + 2] == 0x22)
          {
            index += 1
          }
          index += 3
          tokens.append(.computed)
          continue
        }
        let start = index
        index += 1
        var text: [UInt8] = []
        var computed = false
        while index < bytes.count, bytes[index] != 0x22, bytes[index] != 0x0A {
          if bytes[index] == 0x5C, index + 1 < bytes.count {
            if bytes[index + 1] == 0x28 { computed = true }
            text.append(bytes[index + 1])
            index += 2
            continue
          }
          text.append(bytes[index])
          index += 1
        }
        index += 1
        if computed, let name = Self.interpolatedName(bytes, start + 1..<(index - 1)) {
          // `"\(version)"`: the string is the name's value.
          tokens.append(.identifier(name))
          continue
        }
        tokens.append(
          computed ? .computed : .string(String(decoding: text, as: UTF8.self), start..<index))
      } else if isIdentifier(byte) {
        let start = index
        while index < bytes.count, isIdentifier(bytes[index]) { index += 1 }
        tokens.append(.identifier(String(decoding: bytes[start..<index], as: UTF8.self)))
      } else if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
        index += 1
      } else {
        tokens.append(.punctuation(byte))
        index += 1
      }
    }
    return tokens
  }

  /// The name of a string that is one interpolation and nothing else (`\(version)`).
  private static func interpolatedName(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
    guard range.count > 3, range.upperBound <= bytes.count, bytes[range.lowerBound] == 0x5C,
      bytes[range.lowerBound + 1] == 0x28, bytes[range.upperBound - 1] == 0x29
    else { return nil }
    let name = bytes[(range.lowerBound + 2)..<(range.upperBound - 1)]
    guard let first = name.first, !(0x30...0x39).contains(first),
      name.allSatisfy({
        (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0)
          || $0 == 0x5F || $0 >= 0x80
      })
    else { return nil }
    return String(decoding: name, as: UTF8.self)
  }

  /// The `#if` blocks around the current token: which branch the build compiles, where
  /// that is known.
  struct Conditions {
    /// One `#if`: whether the branch being read is compiled (nil: unknown), and whether an
    /// earlier branch was.
    private var frames: [(active: Bool?, taken: Bool?)] = []

    /// Whether every enclosing branch may be compiled.
    var isActive: Bool { !frames.contains { $0.active == false } }
    /// Whether some enclosing condition is one only the build decides.
    var isUnknown: Bool { frames.contains { $0.active == nil } }

    mutating func apply(_ kind: String, condition: String) {
      let value: Bool? =
        switch condition {
        case "true", "!false": true
        case "false", "!true": false
        default: nil
        }
      switch kind {
      case "if":
        frames.append((value, value))
      case "elseif":
        guard let last = frames.popLast() else { return }
        if last.taken == true {
          frames.append((false, true))
        } else if last.taken == nil || value == nil {
          frames.append((nil, nil))
        } else {
          frames.append((value, value))
        }
      case "else":
        guard let last = frames.popLast() else { return }
        let active: Bool? = last.taken.map { !$0 }
        frames.append((active, true))
      case "endif":
        _ = frames.popLast()
      default:
        break
      }
    }
  }

  /// The compiler directive (`#if`, `#elseif`, `#else`, `#endif`) at `index`, first on its
  /// line: its kind, its condition (spaces removed) and where its line ends.
  static func directive(_ bytes: [UInt8], at index: Int) -> (
    kind: String, condition: String, end: Int
  )? {
    var start = index
    while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
    guard start == 0 || bytes[start - 1] == 0x0A else { return nil }
    var end = index
    while end < bytes.count, bytes[end] != 0x0A { end += 1 }
    var text = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
    if let comment = text.range(of: "//") { text = String(text[..<comment.lowerBound]) }
    let words = text.split(separator: " ", maxSplits: 1)
    guard let kind = words.first.map(String.init),
      ["if", "elseif", "else", "endif"].contains(kind)
    else { return nil }
    let condition = words.count > 1 ? words[1].filter { !$0.isWhitespace } : ""
    return (kind, String(condition), end)
  }

  /// A value as read: a literal string with its place, a call (`.name(arguments)`), an
  /// array, a dictionary of string keys, or something computed.
  indirect enum Value {
    case string(String, Range<Int>)
    case call(name: String, arguments: [(label: String?, value: Value)])
    case array([Value])
    case dictionary([(key: String, value: Value)])
    case member(String)
    case other

    func argument(_ label: String) -> Value? {
      guard case .call(_, let arguments) = self else { return nil }
      return arguments.first { $0.label == label }?.value
    }
  }

  /// The value starting at token `index`; `index` moves past it.
  func value(_ index: inout Int, depth: Int = 0) -> Value {
    guard index < tokens.count else { return .other }
    guard depth < Self.maximumDepth else {
      // Too deep to be a manifest worth reading: passed over, one token at a time.
      index += 1
      return .other
    }
    switch tokens[index] {
    case .string(let text, let range):
      index += 1
      return .string(text, range)
    case .punctuation(0x5B):  // [
      index += 1
      var items: [Value] = []
      var pairs: [(String, Value)] = []
      while index < tokens.count, tokens[index] != .punctuation(0x5D) {
        if tokens[index] == .punctuation(0x3A) {  // [:] empty dictionary
          index += 1
          continue
        }
        let item = value(&index, depth: depth + 1)
        if index < tokens.count, tokens[index] == .punctuation(0x3A) {
          index += 1
          let entry = value(&index, depth: depth + 1)
          if case .string(let key, _) = item { pairs.append((key, entry)) }
        } else {
          items.append(item)
        }
        if index < tokens.count, tokens[index] == .punctuation(0x2C) { index += 1 }
        if index < tokens.count, !isValueStart(tokens[index]), tokens[index] != .punctuation(0x5D) {
          index += 1  // something unread: skip it
        }
      }
      index += 1
      return pairs.isEmpty ? .array(items) : .dictionary(pairs)
    case .punctuation(0x2E), .identifier:  // .member, Type.member, call(...)
      let start = index
      var name = ""
      while index < tokens.count {
        if case .identifier(let word) = tokens[index] {
          // A name follows a dot; one after another is the next statement's.
          if index > start, tokens[index - 1] != .punctuation(0x2E) { break }
          name += word
          index += 1
        } else if tokens[index] == .punctuation(0x2E) {
          name += "."
          index += 1
        } else {
          break
        }
      }
      guard index < tokens.count, tokens[index] == .punctuation(0x28) else {
        // A name bound at the top, before this use, outside any function: its value.
        if isTopLevel[start], let binding = bindings[name], binding.declaredAt < start {
          return binding.value
        }
        return .member(name)
      }
      index += 1
      var arguments: [(String?, Value)] = []
      while index < tokens.count, tokens[index] != .punctuation(0x29) {
        var label: String?
        if case .identifier(let word) = tokens[index], index + 1 < tokens.count,
          tokens[index + 1] == .punctuation(0x3A)
        {
          label = word
          index += 2
        }
        arguments.append((label, value(&index, depth: depth + 1)))
        if index < tokens.count, tokens[index] == .punctuation(0x2C) { index += 1 }
        if index < tokens.count, !isValueStart(tokens[index]), tokens[index] != .punctuation(0x29),
          tokens[index] != .punctuation(0x2C)
        {
          if case .identifier = tokens[index] { continue }
          index += 1
        }
      }
      index += 1
      return .call(name: name, arguments: arguments)
    default:
      index += 1
      return .other
    }
  }

  private func isValueStart(_ token: Token) -> Bool {
    switch token {
    case .string, .identifier, .computed, .punctuation(0x5B), .punctuation(0x2E): true
    default: false
    }
  }

  /// The `Project(...)` call.
  var project: Value? {
    // The manifest's own call, at the top, before one in a helper function's body.
    for topLevel in [true, false] {
      for index in tokens.indices
      where isTopLevel[index] == topLevel && tokens[index] == .identifier("Project") {
        guard index + 1 < tokens.count, tokens[index + 1] == .punctuation(0x28) else { continue }
        var cursor = index
        let call = value(&cursor)
        if case .call = call { return call }
      }
    }
    return nil
  }

  /// The value at `keyPath` (as ``spec(path:)`` names places), for an edit.
  func string(at keyPath: [String]) -> (String, Range<Int>)? {
    if keyPath.first == "let", keyPath.count == 2 || keyPath.count == 3,
      let span = bindingSpans[keyPath[1]]
    {
      let literals = literalTokens(in: span)
      let ordinal = keyPath.count == 3 ? Int(keyPath[2]) : (literals.count == 1 ? 0 : nil)
      guard let ordinal, literals.indices.contains(ordinal),
        case .string(let text, let range) = tokens[literals[ordinal]]
      else { return nil }
      return (text, range)
    }
    guard let project else { return nil }
    if keyPath.first == "targets", keyPath.count > 1 {
      let calls = Self.targetCalls(project)
      let target =
        keyPath[1].hasPrefix("#")
        ? Int(keyPath[1].dropFirst()).flatMap { calls.indices.contains($0) ? calls[$0] : nil }
        : calls.first { Self.literal($0.argument("name")) == keyPath[1] }
      return Self.walk(target, Array(keyPath.dropFirst(2)))
    }
    return Self.walk(project, keyPath)
  }

  private static func walk(_ start: Value?, _ keyPath: [String]) -> (String, Range<Int>)? {
    var node = start
    for key in keyPath {
      switch node {
      case .call(_, let arguments)?:
        node =
          arguments.first { $0.label == key }?.value
          ?? arguments.first { $0.label == nil }?.value.argument(key)
      case .dictionary(let pairs)?:
        node = pairs.last { $0.key == key }?.value
      case .array(let items)?:
        node = items.first { configurationName($0) == key }?.argument("settings")
      default:
        return nil
      }
    }
    return node.flatMap(placedLiteral)
  }

  static func literal(_ value: Value?) -> String? {
    value.flatMap(placedLiteral)?.0
  }

  /// A literal value and the range of its string literal: `"1.0"` or `.string("1.0")`.
  static func placedLiteral(_ value: Value) -> (String, Range<Int>)? {
    switch value {
    case .string(let text, let range): return (text, range)
    case .call(let name, let arguments) where name.hasSuffix("string"):
      if case .string(let text, let range)? = arguments.first?.value { return (text, range) }
      return nil
    default: return nil
    }
  }

  static func targetCalls(_ project: Value) -> [Value] {
    guard case .array(let items)? = project.argument("targets") else { return [] }
    return items.filter {
      guard case .call(let name, _) = $0 else { return false }
      return name == ".target" || name == "Target" || name == "Target.target"
    }
  }

  /// `.debug(name: .debug, ...)` → `Debug`; `.release(...)` → `Release`; a named
  /// configuration's own name.
  static func configurationName(_ value: Value) -> String? {
    guard case .call(let name, _) = value else { return nil }
    if case .string(let text, _)? = value.argument("name") { return text }
    if case .call(_, let arguments)? = value.argument("name"),
      case .string(let text, _)? = arguments.first?.value
    {
      return text
    }
    if case .member(let member)? = value.argument("name") {
      return member == ".debug"
        ? "Debug" : member == ".release" ? "Release" : String(member.dropFirst())
    }
    return name == ".debug" ? "Debug" : name == ".release" ? "Release" : nil
  }

  /// The Info.plist keys a bump reads and writes.
  static let versionKeys: Set<String> = ["CFBundleShortVersionString", "CFBundleVersion"]

  /// Tuist's product names as Xcode's product types.
  static let productTypes: [String: String] = [
    ".app": "application", ".appExtension": "app-extension", ".framework": "framework",
    ".staticFramework": "framework", ".staticLibrary": "library.static",
    ".dynamicLibrary": "library.dynamic", ".unitTests": "bundle.unit-test",
    ".uiTests": "bundle.ui-testing", ".watch2App": "application.watchapp2",
    ".watch2Extension": "watchkit2-extension", ".appClip": "application.on-demand-install-capable",
    ".extensionKitExtension": "extensionkit-extension", ".commandLineTool": "tool",
    ".bundle": "bundle", ".xpc": "xpc-service", ".systemExtension": "system-extension",
    ".messagesExtension": "app-extension.messages",
    ".stickerPackExtension": "app-extension.messages-sticker-pack",
    ".tvTopShelfExtension": "tv-app-extension", ".macro": "tool",
  ]

  /// The manifest as a spec: project and target settings, `infoPlist` properties, products
  /// and dependencies; what code computes is left out. `constants` are the project's helper
  /// constants (``helperConstants(in:scope:)``): a target named by one is read by its value.
  static func spec(path: String, constants: [String: String] = [:]) throws(VersioningError)
    -> XcodeGenSpec
  {
    let bytes: [UInt8]
    do { bytes = try FileIO.read(path) } catch { throw .file(error) }
    return try spec(path: path, bytes: bytes, constants: constants)
  }

  /// The string constants `bytes` (a Swift source) binds with `let` to a plain literal, any
  /// number of times over: `public static let appName = "Chouten"`, `let app: Name = "App"`
  /// (an interpolated or continued literal is code, and left out).
  static func stringConstants(in bytes: [UInt8]) -> [(name: String, value: String)] {
    // The tokens alone: a helper file's own bindings are not this reader's business.
    let tokens = Self.tokens(bytes)
    var found: [(name: String, value: String)] = []
    for index in tokens.indices where tokens[index] == .identifier("let") {
      guard index + 1 < tokens.count, case .identifier(let name) = tokens[index + 1],
        let value = valueStart(afterName: index + 1, in: tokens),
        case .string(let text, _) = tokens[value]
      else { continue }
      // `"a" + b`, `"a".uppercased()`: code.
      if value + 1 < tokens.count, continuesExpression(tokens[value + 1]) { continue }
      found.append((name, text))
    }
    return found
  }

  /// The `Tuist/ProjectDescriptionHelpers` folder a manifest's helpers come from: that of
  /// the nearest folder at or above the manifest's that has one, in `scope`; nil if none.
  static func helpersFolder(for manifest: String, scope: SettingsScope) -> String? {
    var folder = Paths.parent(manifest)
    for _ in 0..<8 where scope.contains(folder) {
      let helpers = Paths.join(folder, "Tuist/ProjectDescriptionHelpers")
      if scope.contains(helpers), FileIO.realPath(helpers) != nil { return helpers }
      let parent = Paths.parent(folder)
      guard parent != folder else { break }
      folder = parent
    }
    return nil
  }

  /// The helper constants a manifest may name (`Environments.appName`, `.projects.app`):
  /// the string constants of the files of `helpers` (``helpersFolder(for:scope:)``) in
  /// `scope`; a name bound to two values is left out. At most 256 files, each read within
  /// the reader's size limit.
  static func helperConstants(in helpers: String, scope: SettingsScope) -> [String: String] {
    var values: [String: Set<String>] = [:]
    // Links are not followed, hidden folders not entered, and the walk stops taking files
    // (and going into folders) at the limit.
    var files: [String] = []
    DirectoryWalker.walk(helpers) { entry in
      guard files.count < 256, entry.isDecodable, !SkippedFolders.skips(entry.name) else {
        return .skip
      }
      if !entry.isFolder, entry.name.hasSuffix(".swift") { files.append(entry.relativePath) }
      return .descend
    }
    for file in files.sorted() {
      let path = Paths.join(helpers, file)
      guard scope.contains(path), let bytes = try? FileIO.read(path) else { continue }
      for (name, value) in stringConstants(in: bytes) { values[name, default: []].insert(value) }
    }
    return values.compactMapValues { $0.count == 1 ? $0.first : nil }
  }

  /// A target's name: its literal, or the helper constant it names (`Environments.appName`,
  /// `.projects.app`, a `TargetReference`'s `appName.targetName`); nil when it is code.
  static func targetName(_ value: Value?, constants: [String: String]) -> String? {
    if let literal = literal(value) { return literal }
    guard case .member(let spelling)? = value else { return nil }
    var parts = spelling.split(separator: ".")
    if parts.count > 1, parts.last == "targetName" || parts.last == "rawValue" {
      parts.removeLast()
    }
    return parts.last.flatMap { constants[String($0)] }
  }

  /// The manifest `bytes` as a spec, as if read from `path`.
  static func spec(path: String, bytes: [UInt8], constants: [String: String] = [:])
    throws(VersioningError) -> XcodeGenSpec
  {
    let manifest = TuistManifest(bytes: bytes)
    guard let project = manifest.project else {
      // Built by a helper (`Project.app(...)`): named on its own row, not guessed.
      var spec = XcodeGenSpec(
        path: path, name: nil, configurations: ["Debug", "Release"],
        settings: XcodeGenSpec.Settings(), configFiles: [:], targets: [])
      spec.builtByCode = ["Project"]
      return spec
    }
    // Line starts found once: a manifest of 80,000 literals is read in one pass, not one
    // pass per literal.
    var lineStarts = [0]
    for (offset, byte) in bytes.enumerated() where byte == 0x0A { lineStarts.append(offset + 1) }
    func line(_ range: Range<Int>) -> Int {
      var low = 0
      var high = lineStarts.count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if lineStarts[middle] <= range.lowerBound { low = middle } else { high = middle - 1 }
      }
      return low + 1
    }
    let folder = Paths.parent(path)
    func settings(_ value: Value?, keyPath: [String]) -> (XcodeGenSpec.Settings, [String: String]) {
      var result = XcodeGenSpec.Settings()
      var files: [String: String] = [:]
      func read(_ dictionary: Value?, _ path: [String]) -> [String: XcodeGenSpec.Setting] {
        guard case .dictionary(let pairs)? = dictionary else { return [:] }
        var settings: [String: XcodeGenSpec.Setting] = [:]
        for (key, value) in pairs {
          guard let (text, range) = placedLiteral(value) else {
            // `"GENERATE_INFOPLIST_FILE": true`: a `SettingValue` from a Boolean literal is
            // YES or NO (read, never a place a bump writes).
            if case .member(let word) = value, word == "true" || word == "false" {
              settings[key] = XcodeGenSpec.Setting(
                value: word == "true" ? "YES" : "NO", place: nil, line: 1, file: pathOfManifest)
            }
            continue
          }
          settings[key] = XcodeGenSpec.Setting(
            value: text,
            place: .spec(
              path: pathOfManifest, keyPath: manifest.home(of: range) ?? (path + [key])),
            line: line(range),
            file: pathOfManifest)
        }
        return settings
      }
      let pathOfManifest = path
      result.base = read(value?.argument("base"), keyPath + ["base"])
      if case .array(let configurations)? = value?.argument("configurations") {
        for configuration in configurations {
          guard let name = configurationName(configuration) else { continue }
          result.set(
            read(configuration.argument("settings"), keyPath + ["configurations", name]),
            for: name)
          if let xcconfig = literal(configuration.argument("xcconfig")) {
            files[name.lowercased()] = InfoPlistDiscovery.normalized(Paths.join(folder, xcconfig))
          }
        }
      }
      return (result, files)
    }
    let (projectSettings, projectFiles) = settings(
      project.argument("settings"), keyPath: ["settings"])
    var targets: [XcodeGenSpec.Target] = []
    var builtByCode: [String] = []
    switch project.argument("targets") {
    case .array(let items)?:
      for (index, item) in items.enumerated() {
        let isTarget: Bool
        if case .call(let kind, _) = item {
          isTarget = kind == ".target" || kind == "Target" || kind == "Target.target"
        } else {
          isTarget = false
        }
        if !isTarget || targetName(item.argument("name"), constants: constants) == nil {
          builtByCode.append("targets[\(index)]")
        }
      }
    case nil: break
    default: builtByCode.append("targets")
    }
    for (ordinal, call) in targetCalls(project).enumerated() {
      guard let name = targetName(call.argument("name"), constants: constants) else { continue }
      // A target named by a helper's constant is found again by its place among the targets
      // (an edit reads the manifest alone).
      let home = literal(call.argument("name")) == nil ? "#\(ordinal)" : name
      var target = XcodeGenSpec.Target(name: name)
      if case .member(let product)? = call.argument("product") {
        target.type = productTypes[product] ?? "application"
      }
      let (targetSettings, targetFiles) = settings(
        call.argument("settings"), keyPath: ["targets", home, "settings"])
      target.settings = targetSettings
      target.configFiles = targetFiles
      switch call.argument("infoPlist") {
      case .string(let file, _)?:
        target.infoPlistFile = InfoPlistDiscovery.normalized(Paths.join(folder, file))
      case .call(let kind, let arguments)? where kind.hasSuffix("file"):
        if case .string(let file, _)? = arguments.first?.value {
          target.infoPlistFile = InfoPlistDiscovery.normalized(Paths.join(folder, file))
        }
      case nil, .member(".default")?:
        // Tuist's default Info.plist: 1.0 and 1, whatever the settings say.
        target.generatesInfoPlist = true
      case .call(let kind, _)? where kind.hasSuffix("extendingDefault"):
        target.generatesInfoPlist = true
        let with = call.argument("infoPlist")?.argument("with")
        switch with {
        case .dictionary(let pairs)?:
          // A version key whose value is code: Tuist's default would be a guess.
          if pairs.contains(where: {
            versionKeys.contains($0.key) && placedLiteral($0.value) == nil
          }) {
            builtByCode.append(name)
            continue
          }
        case nil:
          break
        case .array(let items)? where items.isEmpty:  // `[:]`
          break
        default:
          // Properties a helper, a changed `var` or an expression builds.
          builtByCode.append(name)
          continue
        }
        if case .dictionary(let pairs)? = with {
          for (key, value) in pairs {
            guard let (text, range) = placedLiteral(value) else { continue }
            target.properties[key] = XcodeGenSpec.Setting(
              value: text,
              place: .spec(
                path: path,
                keyPath: manifest.home(of: range) ?? ["targets", home, "infoPlist", "with", key]),
              line: line(range), file: path)
          }
        }
      default: break
      }
      if case .array(let items)? = call.argument("dependencies") {
        target.dependencies = items.compactMap { item in
          guard case .call(let kind, let arguments) = item, kind == ".target" else { return nil }
          return literal(arguments.first { $0.label == "name" || $0.label == nil }?.value)
        }
      }
      targets.append(target)
    }
    var spec = XcodeGenSpec(
      path: path, name: literal(project.argument("name")), configurations: ["Debug", "Release"],
      settings: projectSettings, configFiles: projectFiles, targets: targets)
    spec.builtByCode = builtByCode
    return spec
  }
}

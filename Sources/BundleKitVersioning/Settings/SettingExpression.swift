/// A build-setting value as Xcode reads it: text with `$(NAME)`, `${NAME}` and
/// `$(NAME:default=text)` references, which may nest (`$(A_$(B))`).
struct SettingExpression: Sendable, Hashable {
  /// One piece of the value.
  indirect enum Part: Sendable, Hashable {
    /// Text as written.
    case text(String)
    /// A reference to a setting, with the operators after its name (`default=x`, `lower`).
    case reference(name: SettingExpression, operators: [Operator])
  }

  /// `:default=value`, `:lower`, `:upper` and the other operators Xcode knows.
  struct Operator: Sendable, Hashable {
    var name: String
    var argument: SettingExpression?
  }

  var parts: [Part]

  /// Parses `text`; an unclosed `$(` is an error message.
  static func parse(_ text: String) -> Result<SettingExpression, SettingProblem> {
    var scalars = Array(text.unicodeScalars)[...]
    let parsed = parseParts(&scalars, closing: nil, depth: 0)
    if case .failure(let problem) = parsed { return .failure(problem) }
    if !scalars.isEmpty { return .failure(SettingProblem("unexpected '\(scalars.first ?? " ")'")) }
    return parsed.map { SettingExpression(parts: $0) }
  }

  /// The name of the one setting the whole value refers to (`$(CURRENT_PROJECT_VERSION)`,
  /// quotes already removed), or nil.
  var singleReference: String? {
    guard parts.count == 1, case .reference(let name, let operators) = parts[0],
      operators.isEmpty, name.parts.count == 1, case .text(let text) = name.parts[0]
    else { return nil }
    return text
  }

  /// Whether the value holds no reference at all.
  var isLiteral: Bool {
    parts.allSatisfy {
      if case .text = $0 { return true }
      return false
    }
  }

  /// How deep references may nest inside each other (`$(A_$(B_$(C)))`).
  static let maximumNesting = 32

  private static func parseParts(
    _ scalars: inout ArraySlice<Unicode.Scalar>, closing: Set<Unicode.Scalar>?, depth: Int
  ) -> Result<[Part], SettingProblem> {
    guard depth <= maximumNesting else {
      return .failure(SettingProblem("references nest more than \(maximumNesting) levels deep"))
    }
    var parts: [Part] = []
    var text = ""
    while let scalar = scalars.first {
      if let closing, closing.contains(scalar) { break }
      if scalar == "$", scalars.count > 1,
        let open = scalars.dropFirst().first, open == "(" || open == "{"
      {
        scalars = scalars.dropFirst(2)
        let close: Unicode.Scalar = open == "(" ? ")" : "}"
        switch parseReference(&scalars, close: close, depth: depth + 1) {
        case .success(let part):
          if !text.isEmpty { parts.append(.text(text)) }
          text = ""
          parts.append(part)
        case .failure(let problem):
          return .failure(problem)
        }
        continue
      }
      text.unicodeScalars.append(scalar)
      scalars = scalars.dropFirst()
    }
    if !text.isEmpty { parts.append(.text(text)) }
    return .success(parts)
  }

  private static func parseReference(
    _ scalars: inout ArraySlice<Unicode.Scalar>, close: Unicode.Scalar, depth: Int
  ) -> Result<Part, SettingProblem> {
    let name: [Part]
    switch parseParts(&scalars, closing: [close, ":"], depth: depth) {
    case .success(let parts): name = parts
    case .failure(let problem): return .failure(problem)
    }
    var operators: [Operator] = []
    while let scalar = scalars.first, scalar == ":" {
      scalars = scalars.dropFirst()
      var operatorName = ""
      while let next = scalars.first, next != "=", next != ":", next != close {
        operatorName.unicodeScalars.append(next)
        scalars = scalars.dropFirst()
      }
      var argument: SettingExpression?
      if scalars.first == "=" {
        scalars = scalars.dropFirst()
        switch parseParts(&scalars, closing: [close, ":"], depth: depth) {
        case .success(let parts): argument = SettingExpression(parts: parts)
        case .failure(let problem): return .failure(problem)
        }
      }
      operators.append(Operator(name: operatorName, argument: argument))
    }
    guard scalars.first == close else {
      return .failure(SettingProblem("a reference is not closed with '\(close)'"))
    }
    scalars = scalars.dropFirst()
    return .success(.reference(name: SettingExpression(parts: name), operators: operators))
  }
}

/// What is wrong with a setting's value, for an error message.
struct SettingProblem: Error, Sendable, Hashable {
  var message: String
  init(_ message: String) { self.message = message }
}

/// Types as spelled in source: the parts of a tuple type and a function type, read from
/// their text (extraction knows types only by their spelling).
enum TypeSpellings {
  /// The elements of a parenthesised list spelled `(title: LocalizedStringKey, Int)` (a tuple
  /// type's elements or a function type's parameters), each with its label (nil when it has
  /// none); nil for another spelling.
  static func parenthesisedElements(_ text: String) -> [(label: String?, type: String)]? {
    guard text.hasPrefix("("), text.hasSuffix(")") else { return nil }
    var elements: [(label: String?, type: String)] = []
    var depth = 0
    var element = ""
    var label: String?
    var previous: Character = " "
    for character in text.dropFirst().dropLast() + "," {
      defer { previous = character }
      if "([<".contains(character) { depth += 1 }
      // The `>` of an arrow (`(Int) -> Void`) closes nothing.
      if ")]".contains(character) || (character == ">" && previous != "-") { depth -= 1 }
      if depth == 0, character == ":", label == nil {
        // `title: T` is labelled; the colon of `[String: Int]` is inside brackets.
        label = trimmed(element)
        element = ""
      } else if depth == 0, character == "," {
        elements.append((label, trimmed(element)))
        element = ""
        label = nil
      } else {
        element.append(character)
      }
    }
    if elements.count == 1, elements[0].label == nil, elements[0].type.isEmpty { return [] }
    return elements
  }

  /// The parameter types of a function type spelled `(LocalizedStringKey) -> Void` (optional,
  /// `@escaping` or `@Sendable` too); nil for another spelling.
  static func functionParameterTypes(_ text: String) -> [String]? {
    var text = Substring(text)
    while let attribute = ["@escaping ", "@Sendable ", "@MainActor "].first(where: {
      text.hasPrefix($0)
    }) {
      text = text.dropFirst(attribute.count)
    }
    if text.hasPrefix("("), text.hasSuffix(")?") { text = text.dropFirst().dropLast(2) }
    // The parameter list: the parenthesised run the first top-level `->` follows.
    var depth = 0
    for index in text.indices {
      if text[index] == "(" { depth += 1 }
      guard text[index] == ")" else { continue }
      depth -= 1
      guard depth == 0 else { continue }
      let rest = text[text.index(after: index)...].drop { $0 == " " }
      guard rest.hasPrefix("->") || rest.hasPrefix("async") || rest.hasPrefix("throws") else {
        return nil
      }
      return parenthesisedElements(String(text[...index]))?.map(\.type)
    }
    return nil
  }

  /// The type of the element labelled `label` of a tuple type spelled `(imported: Int,
  /// skipped: Int)`; nil for another type or label.
  static func tupleElementType(_ tuple: String, label: String) -> String? {
    parenthesisedElements(tuple)?.first { $0.label == label }?.type
  }

  private static func trimmed(_ text: String) -> String {
    String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}

/// A path to a value inside a property list.
///
/// Written as `plutil` writes it (`CFBundleURLTypes.0.CFBundleURLSchemes`, with `\.` for a
/// literal dot and `\\` for a backslash) or as PlistBuddy writes it (`:CFBundleURLTypes:0`).
/// Each component is a dictionary key or, in an array, a zero-based index.
public struct PropertyListKeyPath: Sendable, Hashable, CustomStringConvertible {
  /// The components, unescaped.
  public var components: [String]

  /// A key path made of `components`.
  public init(components: [String]) { self.components = components }

  /// Parses a key path: PlistBuddy syntax when it starts with `:`, `plutil` syntax otherwise.
  /// The empty path and `:` name the root value.
  public init(_ text: String) {
    if text.hasPrefix(":") {
      self.init(text.dropFirst(), separator: ":")
    } else {
      self.init(text[...], separator: ".")
    }
  }

  private init(_ text: Substring, separator: Character) {
    var components: [String] = []
    guard !text.isEmpty else {
      self.components = []
      return
    }
    var current = ""
    var escaping = false
    for character in text {
      if escaping {
        current.append(character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == separator {
        components.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    if escaping { current.append("\\") }
    components.append(current)
    self.components = components
  }

  /// The path in `plutil` syntax.
  public var description: String {
    components.map(Self.escape).joined(separator: ".")
  }

  /// Escapes one component for `plutil` syntax.
  public static func escape(_ component: String) -> String {
    guard component.contains(where: { $0 == "." || $0 == "\\" }) else { return component }
    var escaped = ""
    for character in component {
      if character == "." || character == "\\" { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }
}

extension PropertyListValue {
  /// The value at `keyPath`, or an error naming the first component that does not resolve.
  public func value(at keyPath: PropertyListKeyPath) throws(PropertyListError) -> PropertyListValue
  {
    var current = self
    for (depth, component) in keyPath.components.enumerated() {
      current = try current.child(component, keyPath: keyPath, depth: depth)
    }
    return current
  }

  /// Sets the value at `keyPath`. A missing last key is added at the end of its dictionary;
  /// in an array the index may be one past the end, which appends.
  public mutating func setValue(_ value: PropertyListValue, at keyPath: PropertyListKeyPath)
    throws(PropertyListError)
  {
    try update(keyPath, depth: 0) {
      (container: inout PropertyListValue, last: String) throws(PropertyListError) in
      switch container {
      case .dictionary(var dictionary):
        container = .bool(false)  // release the storage so the edit happens in place
        dictionary[last] = value
        container = .dictionary(dictionary)
      case .array(var items):
        guard let index = Int(last), index >= 0, index <= items.count else {
          throw .keyPath(
            path: nil, keyPath: keyPath.description,
            message:
              "'\(last)' is not an index from 0 to \(items.count) in an array of \(items.count)")
        }
        container = .bool(false)
        if index == items.count { items.append(value) } else { items[index] = value }
        container = .array(items)
      default:
        throw .keyPath(
          path: nil, keyPath: keyPath.description,
          message: "cannot set '\(last)' inside a \(container.typeName)")
      }
    } root: { root in
      root = value
    }
  }

  /// Removes the value at `keyPath`; an error when there is none.
  public mutating func removeValue(at keyPath: PropertyListKeyPath) throws(PropertyListError) {
    try update(keyPath, depth: 0) {
      (container: inout PropertyListValue, last: String) throws(PropertyListError) in
      switch container {
      case .dictionary(var dictionary):
        guard dictionary.keys.contains(last) else {
          throw .keyPath(path: nil, keyPath: keyPath.description, message: "no key '\(last)'")
        }
        container = .bool(false)
        dictionary.removeValue(forKey: last)
        container = .dictionary(dictionary)
      case .array(var items):
        guard let index = Int(last), items.indices.contains(index) else {
          throw .keyPath(
            path: nil, keyPath: keyPath.description,
            message: "'\(last)' is not an index in an array of \(items.count)")
        }
        container = .bool(false)
        items.remove(at: index)
        container = .array(items)
      default:
        throw .keyPath(
          path: nil, keyPath: keyPath.description,
          message: "cannot remove '\(last)' from a \(container.typeName)")
      }
    } root: { _ throws(PropertyListError) in
      throw .keyPath(path: nil, keyPath: "", message: "cannot remove the root value")
    }
  }

  private func child(_ component: String, keyPath: PropertyListKeyPath, depth: Int)
    throws(PropertyListError)
    -> PropertyListValue
  {
    let prefix = PropertyListKeyPath(components: Array(keyPath.components[...depth])).description
    switch self {
    case .dictionary(let dictionary):
      guard let value = dictionary[component] else {
        throw .keyPath(path: nil, keyPath: prefix, message: "no such key")
      }
      return value
    case .array(let items):
      guard let index = Int(component), items.indices.contains(index) else {
        throw .keyPath(
          path: nil, keyPath: prefix, message: "not an index in an array of \(items.count)")
      }
      return items[index]
    default:
      throw .keyPath(
        path: nil, keyPath: prefix, message: "the parent value is a \(typeName), not a container")
    }
  }

  /// `update`, returning its error instead of throwing, so callers can put the value back
  /// together first.
  private mutating func tryUpdate(
    _ keyPath: PropertyListKeyPath, depth: Int,
    _ edit: (inout PropertyListValue, String) throws(PropertyListError) -> Void,
    root: (inout PropertyListValue) throws(PropertyListError) -> Void
  ) -> PropertyListError? {
    do {
      try update(keyPath, depth: depth, edit, root: root)
      return nil
    } catch {
      return error
    }
  }

  /// Walks to the parent of the last component and applies `edit` there, writing back the
  /// changed containers on the way out.
  private mutating func update(
    _ keyPath: PropertyListKeyPath, depth: Int,
    _ edit: (inout PropertyListValue, String) throws(PropertyListError) -> Void,
    root: (inout PropertyListValue) throws(PropertyListError) -> Void
  ) throws(PropertyListError) {
    let components = keyPath.components
    if components.isEmpty {
      try root(&self)
      return
    }
    if depth == components.count - 1 {
      try edit(&self, components[depth])
      return
    }
    let component = components[depth]
    var child = try child(component, keyPath: keyPath, depth: depth)
    // Drop our reference to the child so it is uniquely owned while edited.
    switch self {
    case .dictionary(var dictionary):
      self = .bool(false)
      dictionary[component] = .bool(false)
      let failure = child.tryUpdate(keyPath, depth: depth + 1, edit, root: root)
      dictionary[component] = child
      self = .dictionary(dictionary)
      if let failure { throw failure }
    case .array(var items):
      guard let index = Int(component) else { return }
      self = .bool(false)
      items[index] = .bool(false)
      let failure = child.tryUpdate(keyPath, depth: depth + 1, edit, root: root)
      items[index] = child
      self = .array(items)
      if let failure { throw failure }
    default:
      return
    }
  }
}

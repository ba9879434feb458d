import SwiftSyntax

/// What a target declares that extraction needs: its functions and initialisers that take
/// localized parameters (so their calls are extracted like SwiftUI's), and the types of its
/// properties, globals and function results (so interpolations get the right specifier).
struct TargetDeclarations: Sendable {
  /// A function or initialiser with localized parameters.
  struct LocalizedCallable: Sendable, Hashable {
    /// The function's name, or the type's for an initialiser.
    var name: String
    /// Each parameter's argument label (nil for `_`).
    var labels: [String?]
    /// The positions of the localized parameters.
    var localized: Set<Int>
    /// The type (or extension) declaring a method; nil for a global function, an
    /// initialiser or an enum case.
    var owner: String? = nil
  }

  /// Callables by name.
  var callables: [String: [LocalizedCallable]] = [:]
  /// Overloads taking a plain `String` by name, its positions in `localized`: a string
  /// literal goes to `String` (its default type) when both fit, so Xcode extracts nothing
  /// there (`AppRow(_ title: String)` beside `AppRow(_ title: LocalizedStringKey)`).
  var plainCallables: [String: [LocalizedCallable]] = [:]
  /// Stored and computed properties by name, with every type they are declared with.
  var properties: [String: Set<String>] = [:]
  /// Members by type and name, where a type's own are known (Core Data entities' classes).
  var members: [String: [String: String]] = [:]
  /// The stored and computed properties each type (or extension of it) declares, by type
  /// name and property name, with every type they are declared with: inside a type, its own
  /// `calories: Int` is what `calories` means, whatever other types call `calories`.
  var declaredMembers: [String: [String: Set<String>]] = [:]
  /// Function results by function name, with every type declared.
  var results: [String: Set<String>] = [:]
  /// The associated values' types of each enum case by the case's name, one list per case
  /// declared with that name: `case hours(Int)` binds an `Int` in `case .hours(let h)`.
  var enumCases: [String: [[String]]] = [:]
  /// The value types of the Defaults library's keys by key name (`static let leadTime =
  /// Key<Int>("leadTime", default: 5)` in `extension Defaults.Keys`).
  var defaultsKeys: [String: Set<String>] = [:]
  /// Properties that the Defaults library's `@Default(.key)` wraps, with no type written:
  /// they have their key's value type (``resolveDefaultsProperties()``).
  var defaultsProperties: [DefaultsProperty] = []

  /// A property wrapped in `@Default(.key)`.
  struct DefaultsProperty: Sendable, Hashable {
    /// The type (or extension) declaring it; nil for a global.
    var owner: String?
    /// The property's name.
    var name: String
    /// The key's name (`leadTime` in `@Default(.leadTime)`).
    var key: String
  }

  /// The spellings of the localized parameter types.
  static let localizedTypes: Set<String> = [
    "LocalizedStringKey", "LocalizedStringResource", "String.LocalizationValue",
    "SwiftUI.LocalizedStringKey", "Foundation.LocalizedStringResource",
    // App Intents' types a literal converts to through its `LocalizedStringResource`.
    "DisplayRepresentation", "TypeDisplayRepresentation", "IntentDescription", "IntentDialog",
    "AppIntents.DisplayRepresentation", "AppIntents.TypeDisplayRepresentation",
    "AppIntents.IntentDescription", "AppIntents.IntentDialog",
  ]

  /// Whether a type spelling is a localized type (optional or not).
  static func isLocalized(_ type: TypeSyntax) -> Bool {
    isLocalized(type.trimmedDescription)
  }

  /// Whether a type spelled `text` holds localized strings: one of the localized types,
  /// optional or not, an array of them (`[LocalizedStringResource]`), or a dictionary with
  /// them as values (`[Self: DisplayRepresentation]`).
  static func isLocalized(_ text: String) -> Bool {
    var text = text.filter { $0 != " " }
    while text.hasSuffix("?") || text.hasSuffix("!") { text.removeLast() }
    if text.hasPrefix("["), text.hasSuffix("]") {
      text = String(text.dropFirst().dropLast())
      // A dictionary's value: after the first colon outside brackets.
      var depth = 0
      if let colon = text.firstIndex(where: { character in
        if character == "[" || character == "<" || character == "(" { depth += 1 }
        if character == "]" || character == ">" || character == ")" { depth -= 1 }
        return character == ":" && depth == 0
      }) {
        text = String(text[text.index(after: colon)...])
      }
      while text.hasSuffix("?") { text.removeLast() }
    }
    return localizedTypes.contains(text)
  }

  mutating func collect(_ file: SourceFileSyntax) {
    let collector = Collector(viewMode: .sourceAccurate)
    collector.walk(file)
    add(collector)
  }

  /// Collects what another module may call from `file`: its public and open initialisers
  /// and functions taking localized parameters (a local package's `AppButton("Save")`),
  /// nothing else (its property types are its own module's business).
  mutating func collectPublic(_ file: SourceFileSyntax) {
    let collector = Collector(viewMode: .sourceAccurate)
    collector.publicOnly = true
    collector.walk(file)
    add(collector)
  }

  private mutating func add(_ collector: Collector) {
    for callable in collector.callables { callables[callable.name, default: []].append(callable) }
    for callable in collector.plainCallables {
      plainCallables[callable.name, default: []].append(callable)
    }
    for (name, types) in collector.properties { properties[name, default: []].formUnion(types) }
    for (type, names) in collector.members {
      for (name, types) in names {
        declaredMembers[type, default: [:]][name, default: []].formUnion(types)
      }
    }
    for (name, types) in collector.results { results[name, default: []].formUnion(types) }
    for (name, signatures) in collector.enumCases { enumCases[name, default: []] += signatures }
    for (name, types) in collector.defaultsKeys { defaultsKeys[name, default: []].formUnion(types) }
    defaultsProperties += collector.defaultsProperties
  }

  /// Gives each `@Default(.key)` property its key's value type, once every file of the
  /// target is collected (the keys are usually declared in a file of their own).
  mutating func resolveDefaultsProperties() {
    for property in defaultsProperties {
      guard let types = defaultsKeys[property.key] else { continue }
      properties[property.name, default: []].formUnion(types)
      if let owner = property.owner {
        declaredMembers[owner, default: [:]][property.name, default: []].formUnion(types)
      }
    }
  }

  /// The value type of the Defaults library's key `name`, when unambiguous.
  func defaultsKeyType(_ name: String) -> String? {
    defaultsKeys[name].flatMap(Self.oneType)
  }

  /// The type of the associated value at `position` of the enum case `name` with `count`
  /// associated values, when every case of that name and shape agrees.
  func associatedValueType(ofCase name: String, at position: Int, count: Int) -> String? {
    let types = Set(
      (enumCases[name] ?? []).lazy.filter { $0.count == count }.map { $0[position] })
    return types.isEmpty ? nil : Self.oneType(types)
  }

  /// The one type a property name is declared with across the target, when unambiguous.
  /// `Int` and `Int?` are one: an optional cannot be interpolated into a localized string,
  /// so code that compiles interpolates the `Int`.
  func propertyType(_ name: String) -> String? {
    properties[name].flatMap(Self.oneType)
  }

  /// The type of the property `name` that `type` itself declares, when unambiguous (nil
  /// when it declares none: then the name may be another type's, or inherited).
  func memberType(of type: String, _ name: String) -> String? {
    if let generated = members[type]?[name] { return generated }
    if let declared = declaredMembers[type]?[name] { return Self.oneType(declared) }
    // `Snapshot.AirQualityInfo`: a nested type's members are collected under its own name.
    guard let dot = type.lastIndex(of: ".") else { return nil }
    return declaredMembers[String(type[type.index(after: dot)...])]?[name].flatMap(Self.oneType)
  }

  /// The one type among `types` that can be known here.
  private static func oneType(_ types: Set<String>) -> String? {
    // `RenewalState.RawValue`: another type's associated type, which only the compiler
    // resolves (an `Int` there): not known here.
    guard let type = plainOneType(types), !type.hasSuffix(".RawValue") else { return nil }
    return type
  }

  /// The one type among `types`, an optional counting as its wrapped type.
  private static func plainOneType(_ types: Set<String>) -> String? {
    if types.count == 1 { return types.first }
    let plain = types.filter { !$0.hasSuffix("?") && !$0.hasSuffix("!") }
    guard plain.count == 1, let type = plain.first,
      types.allSatisfy({ $0 == type || $0 == type + "?" || $0 == type + "!" })
    else { return nil }
    return type
  }

  /// The one result type of a function name, when unambiguous.
  func resultType(_ name: String) -> String? {
    guard let types = results[name], types.count == 1 else { return nil }
    return types.first
  }

  private final class Collector: SyntaxVisitor {
    var callables: [LocalizedCallable] = []
    var plainCallables: [LocalizedCallable] = []
    var properties: [String: Set<String>] = [:]
    var members: [String: [String: Set<String>]] = [:]
    var results: [String: Set<String>] = [:]
    var enumCases: [String: [[String]]] = [:]
    var defaultsKeys: [String: Set<String>] = [:]
    var defaultsProperties: [DefaultsProperty] = []
    var typeNames: [String] = []
    /// Only what other modules may call (``collectPublic(_:)``).
    var publicOnly = false
    /// Whether each enclosing extension is `public` (its members are public by default).
    var publicExtensions: [Bool] = []

    /// Whether a declaration with `modifiers` can be called from another module.
    func isVisible(_ modifiers: DeclModifierListSyntax) -> Bool {
      let names = modifiers.map(\.name.text)
      if names.contains("public") || names.contains("open") { return true }
      let restricted = ["private", "fileprivate", "internal", "package"]
      return publicExtensions.last == true && !names.contains(where: restricted.contains)
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
      typeNames.append(node.name.text)
      // The memberwise initialiser is internal: no other module calls it.
      if !publicOnly { recordMemberwiseInitializer(node) }
      return .visitChildren
    }

    /// A struct with no initialiser of its own gets the memberwise one: a parameter per
    /// stored property in order, labelled with its name (`Row(title: "Inbox")` when `title`
    /// is a `LocalizedStringKey`). A `let` with a value is not one; a `var` with one is, with
    /// that default.
    func recordMemberwiseInitializer(_ node: StructDeclSyntax) {
      var labels: [String?] = []
      var localized: Set<Int> = []
      for member in node.memberBlock.members {
        let declaration = member.decl
        if declaration.is(InitializerDeclSyntax.self) { return }
        guard let variable = declaration.as(VariableDeclSyntax.self),
          !variable.modifiers.contains(where: {
            $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
              || $0.name.tokenKind == .keyword(.lazy)
          })
        else { continue }
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        for binding in variable.bindings {
          guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
          else { continue }
          if let accessors = binding.accessorBlock {
            // Computed unless its accessors are only observers.
            guard case .accessors(let list) = accessors.accessors,
              list.allSatisfy({
                [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
              })
            else { continue }
          }
          if isLet, binding.initializer != nil { continue }
          if let type = binding.typeAnnotation?.type, TargetDeclarations.isLocalized(type) {
            localized.insert(labels.count)
          }
          labels.append(name)
        }
      }
      if !localized.isEmpty {
        callables.append(
          LocalizedCallable(name: node.name.text, labels: labels, localized: localized))
      }
    }
    override func visitPost(_ node: StructDeclSyntax) { typeNames.removeLast() }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
      typeNames.append(node.name.text)
      return .visitChildren
    }
    override func visitPost(_ node: ClassDeclSyntax) { typeNames.removeLast() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
      typeNames.append(node.name.text)
      return .visitChildren
    }
    override func visitPost(_ node: EnumDeclSyntax) { typeNames.removeLast() }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
      typeNames.append(node.extendedType.trimmedDescription)
      publicExtensions.append(node.modifiers.contains { $0.name.text == "public" })
      return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) {
      typeNames.removeLast()
      publicExtensions.removeLast()
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
      if publicOnly {
        if isVisible(node.modifiers) {
          record(name: node.name.text, parameters: node.signature.parameterClause.parameters)
        }
        return .skipChildren
      }
      record(
        name: node.name.text, parameters: node.signature.parameterClause.parameters,
        owner: typeNames.last)
      if let result = node.signature.returnClause?.type {
        results[node.name.text, default: []].insert(result.trimmedDescription)
      }
      // Locals are a scope's business, not the target's.
      return .skipChildren
    }

    /// `case invalid(description: LocalizedStringKey)`: `.invalid(description: "...")` is a
    /// call with a localized parameter.
    override func visit(_ node: EnumCaseDeclSyntax) -> SyntaxVisitorContinueKind {
      if publicOnly { return .skipChildren }
      for element in node.elements {
        guard let parameters = element.parameterClause?.parameters else { continue }
        enumCases[element.name.text, default: []].append(
          parameters.map { $0.type.trimmedDescription })
        var labels: [String?] = []
        var localized: Set<Int> = []
        for (index, parameter) in parameters.enumerated() {
          let label = parameter.firstName?.text
          labels.append(label == "_" ? nil : label)
          if TargetDeclarations.isLocalized(parameter.type) { localized.insert(index) }
        }
        if !localized.isEmpty {
          callables.append(
            LocalizedCallable(name: element.name.text, labels: labels, localized: localized))
        }
      }
      return .skipChildren
    }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
      if publicOnly, !isVisible(node.modifiers) { return .skipChildren }
      if let type = typeNames.last {
        record(name: type, parameters: node.signature.parameterClause.parameters)
      }
      return .skipChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
      if publicOnly { return .skipChildren }
      for binding in node.bindings {
        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        else { continue }
        if let value = binding.initializer?.value, let keyType = Self.defaultsKeyType(value) {
          defaultsKeys[name, default: []].insert(keyType)
        }
        if binding.typeAnnotation == nil, binding.initializer == nil,
          let key = Self.defaultsKey(node.attributes)
        {
          defaultsProperties.append(DefaultsProperty(owner: typeNames.last, name: name, key: key))
          continue
        }
        let type =
          binding.typeAnnotation.map { $0.type.trimmedDescription }
          ?? binding.initializer.flatMap { LiteralTypes.type(of: $0.value) }
        guard let type else { continue }
        properties[name, default: []].insert(type)
        // Functions' bodies and closures are not walked: a variable here is a member of the
        // type around it, or a global.
        if let owner = typeNames.last {
          members[owner, default: [:]][name, default: []].insert(type)
          // `extension Snapshot.AirQualityInfo`: under the nested type's own name too, as
          // its declaration inside `Snapshot` is.
          if let dot = owner.lastIndex(of: ".") {
            members[String(owner[owner.index(after: dot)...]), default: [:]][name, default: []]
              .insert(type)
          }
        }
      }
      return .skipChildren
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    /// `T` of the Defaults library's `Key<T>(...)` or `Defaults.Key<T>(...)`; nil otherwise.
    static func defaultsKeyType(_ value: ExprSyntax) -> String? {
      guard let call = value.as(FunctionCallExprSyntax.self),
        let generic = call.calledExpression.as(GenericSpecializationExprSyntax.self),
        ["Key", "Defaults.Key"].contains(generic.expression.trimmedDescription),
        generic.genericArgumentClause.arguments.count == 1,
        let argument = generic.genericArgumentClause.arguments.first
      else { return nil }
      return argument.argument.trimmedDescription
    }

    /// `key` of a `@Default(.key)` among `attributes`; nil when there is none.
    static func defaultsKey(_ attributes: AttributeListSyntax) -> String? {
      for case .attribute(let attribute) in attributes
      where ["Default", "Defaults.Default"].contains(attribute.attributeName.trimmedDescription) {
        guard case .argumentList(let arguments) = attribute.arguments, arguments.count == 1,
          let member = arguments.first?.expression.as(MemberAccessExprSyntax.self),
          member.base == nil
        else { return nil }
        return member.declName.baseName.text
      }
      return nil
    }

    func record(name: String, parameters: FunctionParameterListSyntax, owner: String? = nil) {
      var labels: [String?] = []
      var localized: Set<Int> = []
      var plain: Set<Int> = []
      for (index, parameter) in parameters.enumerated() {
        let label = parameter.firstName.text
        labels.append(label == "_" ? nil : label)
        if TargetDeclarations.isLocalized(parameter.type) { localized.insert(index) }
        if ["String", "String?"].contains(parameter.type.trimmedDescription) {
          plain.insert(index)
        }
      }
      if !localized.isEmpty {
        callables.append(
          LocalizedCallable(name: name, labels: labels, localized: localized, owner: owner))
      }
      if !plain.isEmpty {
        plainCallables.append(
          LocalizedCallable(name: name, labels: labels, localized: plain, owner: owner))
      }
    }
  }
}

/// The types literals and simple conversions have.
enum LiteralTypes {
  /// `Int` for `3`, `Double` for `2.5`, `String` for `"a"`, `T` for `T(...)` of a standard
  /// numeric or string type; nil otherwise.
  static func type(of expression: ExprSyntax) -> String? {
    if expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
    if expression.is(FloatLiteralExprSyntax.self) { return "Double" }
    if expression.is(StringLiteralExprSyntax.self) { return "String" }
    if expression.is(BooleanLiteralExprSyntax.self) { return "Bool" }
    if let collection = collectionType(of: expression) { return collection }
    if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
      return type(of: prefix.expression)
    }
    if let call = expression.as(FunctionCallExprSyntax.self),
      let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
      conversions.contains(callee.baseName.text)
    {
      return callee.baseName.text
    }
    return nil
  }

  /// The element type of a collection type spelled `[T]` (an array) or `Range<Int>`.
  static func elementType(_ collection: String) -> String? {
    if collection.hasPrefix("["), collection.hasSuffix("]"), !collection.contains(":") {
      return String(collection.dropFirst().dropLast())
    }
    if ["Range<Int>", "ClosedRange<Int>"].contains(collection) { return "Int" }
    return nil
  }

  /// `[Int]` for `[1, 2]`, `Array(1...30)`, `Array(stride(from: 10, through: 40, by: 10))`
  /// and their sums; `ClosedRange<Int>` and `Range<Int>` for ranges of integer literals;
  /// nil otherwise.
  static func collectionType(of expression: ExprSyntax, depth: Int = 0) -> String? {
    guard depth < 16 else { return nil }
    if let array = expression.as(ArrayExprSyntax.self), !array.elements.isEmpty {
      let types = Set(array.elements.map { type(of: $0.expression) ?? "" })
      guard types.count == 1, let element = types.first, !element.isEmpty else { return nil }
      return "[\(element)]"
    }
    if let infix = expression.as(InfixOperatorExprSyntax.self) {
      let operation = infix.operator.trimmedDescription
      if operation == "...", type(of: infix.leftOperand) == "Int" { return "ClosedRange<Int>" }
      if operation == "..<", type(of: infix.leftOperand) == "Int" { return "Range<Int>" }
      if operation == "+" {
        return collectionType(of: infix.leftOperand, depth: depth + 1)
          ?? collectionType(of: infix.rightOperand, depth: depth + 1)
      }
    }
    if let call = expression.as(FunctionCallExprSyntax.self),
      let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
      let argument = call.arguments.first?.expression
    {
      switch callee.baseName.text {
      case "Array":
        if let inner = collectionType(of: argument, depth: depth + 1) {
          return "[\(elementType(inner) ?? inner)]"
        }
      case "stride":
        if let first = call.arguments.first, first.label?.text == "from",
          let type = type(of: first.expression)
        {
          return "[\(type)]"
        }
      default: break
      }
    }
    return nil
  }

  /// Types whose initialiser call names the result's type.
  static let conversions: Set<String> = [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
    "Double", "Float", "CGFloat", "String", "Date", "URL", "AttributedString", "Text",
  ]
}

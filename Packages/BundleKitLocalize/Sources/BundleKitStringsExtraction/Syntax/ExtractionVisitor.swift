import BundleKitDiagnostics
import Foundation
@_spi(Compiler) import SwiftParser
import SwiftSyntax

/// Walks one file: keeps the names in scope with their types, and records each localized
/// literal it meets.
final class ExtractionVisitor: SyntaxVisitor {
  let path: String
  let converter: SourceLocationConverter
  let declarations: TargetDeclarations
  var strings: [ExtractedString] = []
  var diagnostics: [Diagnostic] = []
  /// Every string literal's text, interpolations as `%@` (``SwiftStringExtractor/Result``).
  var literals: Set<String> = []
  /// Names in scope, innermost last; a nil type is a name whose type is not known (it
  /// shadows an outer one all the same).
  var scopes: [[String: String?]] = [[:]]
  /// For each function, accessor and closure being walked, innermost last: whether what it
  /// returns is localized (its literals are then extracted).
  var returnsLocalized: [Bool] = []
  /// For each type declaration being walked, innermost last: whether it conforms to an App
  /// Intents protocol (its unannotated requirements are then localized).
  var appIntentsTypes: [Bool] = []
  /// For each enum being walked, innermost last: whether its raw type is localized.
  var localizedRawValues: [Bool] = []

  /// The project's `NSLocalizedString`-like functions (``SwiftStringExtractor/localizedFunctionNames``).
  let localizedFunctionNames: Set<String>

  init(
    path: String, tree: SourceFileSyntax, declarations: TargetDeclarations,
    localizedFunctionNames: Set<String> = []
  ) {
    self.path = path
    self.converter = SourceLocationConverter(fileName: path, tree: tree)
    self.declarations = declarations
    self.localizedFunctionNames = localizedFunctionNames
    self.importsCharts = tree.statements.contains {
      $0.item.as(ImportDeclSyntax.self)?.path.trimmedDescription == "Charts"
    }
    super.init(viewMode: .sourceAccurate)
  }

  /// Whether the file imports Swift Charts, whose `.value("Month", ...)` labels are keys.
  let importsCharts: Bool

  // MARK: Types

  /// The names of the types (and extensions) being walked, innermost last: their own
  /// properties are what a bare name inside them means.
  var typeNames: [String] = []

  func pushType(_ inheritance: InheritanceClauseSyntax?, named name: String) {
    typeNames.append(name)
    let names = inheritance?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
    appIntentsTypes.append(
      names.contains {
        LocalizedAPIs.isAppIntentsConformance($0.split(separator: ".").last.map(String.init) ?? $0)
      })
  }

  func popType() {
    typeNames.removeLast()
    appIntentsTypes.removeLast()
  }

  override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
    pushType(node.inheritanceClause, named: node.name.text)
    return .visitChildren
  }
  override func visitPost(_ node: StructDeclSyntax) { popType() }
  override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
    pushType(node.inheritanceClause, named: node.name.text)
    return .visitChildren
  }
  override func visitPost(_ node: ClassDeclSyntax) { popType() }
  override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
    pushType(node.inheritanceClause, named: node.name.text)
    // `enum Mode: LocalizedStringKey { case timer = "Timer" }`: the raw type is the first
    // inherited type, and each raw value is a localized literal.
    let raw = node.inheritanceClause?.inheritedTypes.first?.type
    localizedRawValues.append(raw.map { TargetDeclarations.isLocalized($0) } ?? false)
    return .visitChildren
  }
  override func visit(_ node: EnumCaseElementSyntax) -> SyntaxVisitorContinueKind {
    guard localizedRawValues.last == true else { return .visitChildren }
    if let literal = node.rawValue?.value.as(StringLiteralExprSyntax.self) {
      record(literal, source: "an enum case's LocalizedStringKey raw value", arguments: nil)
    } else if node.rawValue == nil, node.parameterClause == nil {
      // `enum SortOrder: LocalizedStringResource { case title }`: a case without a raw value
      // has its name as a string literal (the compiler's rule for a raw type made from
      // string literals), which Xcode extracts as any other.
      let location = node.name.startLocation(converter: converter)
      strings.append(
        ExtractedString(
          key: node.name.text.filter { $0 != "`" }, file: path, line: location.line,
          column: location.column, source: "an enum case's implicit LocalizedStringKey raw value"
        ))
    }
    return .visitChildren
  }
  override func visitPost(_ node: EnumDeclSyntax) {
    popType()
    localizedRawValues.removeLast()
  }
  override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
    pushType(node.inheritanceClause, named: node.name.text)
    return .visitChildren
  }
  override func visitPost(_ node: ActorDeclSyntax) { popType() }
  override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
    pushType(node.inheritanceClause, named: node.extendedType.trimmedDescription)
    return .visitChildren
  }
  override func visitPost(_ node: ExtensionDeclSyntax) { popType() }

  /// `@Parameter(title: "Count", description: "...")`: an App Intents property wrapper's
  /// localized arguments.
  override func visit(_ node: AttributeSyntax) -> SyntaxVisitorContinueKind {
    let name = node.attributeName.trimmedDescription
    guard let labels = LocalizedAPIs.attributes[name],
      case .argumentList(let arguments) = node.arguments
    else { return .visitChildren }
    for argument in arguments {
      guard let label = argument.label?.text, labels.contains(label) else { continue }
      recordTyped(argument.expression, source: "@\(name)")
    }
    return .visitChildren
  }

  /// Code under `if false` is never built, so Xcode extracts none of it.
  override func visit(_ node: IfExprSyntax) -> SyntaxVisitorContinueKind {
    guard node.conditions.count == 1,
      let condition = node.conditions.first?.condition.as(ExprSyntax.self),
      condition.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.false)
    else { return .visitChildren }
    if let elseBody = node.elseBody { walk(elseBody) }
    return .skipChildren
  }

  /// Nor anything in a `#Preview`: the previews' strings are not the app's (seen on real
  /// apps: 25 of 25 preview literals absent from catalogs Xcode keeps).
  override func visit(_ node: MacroExpansionDeclSyntax) -> SyntaxVisitorContinueKind {
    node.macroName.text == "Preview" ? .skipChildren : .visitChildren
  }
  override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
    node.macroName.text == "Preview" ? .skipChildren : .visitChildren
  }

  /// Nor anything under `#if false`.
  override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
    if let condition = node.condition,
      condition.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.false)
        || condition.as(IntegerLiteralExprSyntax.self)?.literal.text == "0"
    {
      return .skipChildren
    }
    return .visitChildren
  }

  // MARK: Scopes

  func declare(_ name: String, _ type: String?) {
    scopes[scopes.count - 1][name] = .some(type)
  }

  func lookup(_ name: String) -> String?? {
    for scope in scopes.reversed() {
      if let type = scope[name] { return type }
    }
    return nil
  }

  func pushParameters(_ parameters: FunctionParameterListSyntax) {
    scopes.append([:])
    for parameter in parameters {
      let name = (parameter.secondName ?? parameter.firstName).text
      declare(name, parameter.type.trimmedDescription)
      // A localized parameter's default value is extracted: `_ title: LocalizedStringKey = "Untitled"`.
      if TargetDeclarations.isLocalized(parameter.type), let value = parameter.defaultValue?.value {
        recordTyped(value, source: "a default value")
      }
    }
  }

  override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
    pushParameters(node.signature.parameterClause.parameters)
    let localized =
      node.signature.returnClause.map { TargetDeclarations.isLocalized($0.type) } ?? false
    returnsLocalized.append(localized)
    if localized, let body = node.body { recordImplicitReturn(body.statements) }
    return .visitChildren
  }
  override func visitPost(_ node: FunctionDeclSyntax) {
    scopes.removeLast()
    returnsLocalized.removeLast()
  }

  override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
    pushParameters(node.signature.parameterClause.parameters)
    returnsLocalized.append(false)
    return .visitChildren
  }
  override func visitPost(_ node: InitializerDeclSyntax) {
    scopes.removeLast()
    returnsLocalized.removeLast()
  }

  /// A computed property's getter: `var title: LocalizedStringKey { "Inbox" }`, or
  /// `switch self { case .a: "A" ... }`. Its body is a scope of its own, as a function's is
  /// (`var body: some View { let saved = ... }`: its `let`s are names with types).
  override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind {
    scopes.append([:])
    let type =
      node.parent?.as(PatternBindingSyntax.self)?.typeAnnotation?.type
      ?? node.parent?.as(SubscriptDeclSyntax.self)?.returnClause.type
    let localized = type.map(TargetDeclarations.isLocalized) ?? false
    returnsLocalized.append(localized)
    if localized {
      switch node.accessors {
      case .getter(let statements): recordImplicitReturn(statements)
      case .accessors(let accessors):
        for accessor in accessors where accessor.accessorSpecifier.tokenKind == .keyword(.get) {
          if let body = accessor.body { recordImplicitReturn(body.statements) }
        }
      }
    }
    return .visitChildren
  }
  override func visitPost(_ node: AccessorBlockSyntax) {
    returnsLocalized.removeLast()
    scopes.removeLast()
  }

  override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
    if returnsLocalized.last == true, let value = node.expression {
      recordTyped(value, source: "a localized result")
    }
    return .visitChildren
  }

  /// `x = "..."` and `self.x = "..."` where `x` is declared localized.
  override func visit(_ node: InfixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
    guard node.operator.is(AssignmentExprSyntax.self) else { return .visitChildren }
    var type: String?
    if let reference = node.leftOperand.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      type = lookup(name) ?? declarations.propertyType(name)
    } else if let member = node.leftOperand.as(MemberAccessExprSyntax.self),
      member.base?.trimmedDescription == "self"
    {
      type = declarations.propertyType(member.declName.baseName.text)
    }
    if let type, TargetDeclarations.isLocalized(type) {
      recordTyped(node.rightOperand, source: "a \(type) value")
    }
    return .visitChildren
  }

  /// The single expression a body returns without `return`.
  func recordImplicitReturn(_ statements: CodeBlockItemListSyntax) {
    recordBranch(statements, source: "a localized result", depth: 0)
  }

  /// The literals an expression of a localized type holds: itself, each element of an array
  /// literal, both branches of `? :`, each branch of an `if` or `switch` expression.
  ///
  /// `overloaded` is set for an API that also takes a `String` (`Text`, `Button` ...): a
  /// ternary with a branch that is no literal and not known to be localized is a `String`
  /// then, and the verbatim initialiser takes it, so neither branch is extracted.
  func recordTyped(
    _ expression: ExprSyntax, source: String, arguments: [LabeledExprSyntax]? = nil,
    overloaded: Bool = false, depth: Int = 0
  ) {
    guard depth < 32 else { return }
    if let literal = expression.as(StringLiteralExprSyntax.self) {
      record(literal, source: source, arguments: arguments)
    } else if let array = expression.as(ArrayExprSyntax.self) {
      for element in array.elements {
        recordTyped(element.expression, source: source, depth: depth + 1)
      }
    } else if let dictionary = expression.as(DictionaryExprSyntax.self) {
      // `[.toggle: "Toggle"]` as `[Self: DisplayRepresentation]`: the values.
      if case .elements(let elements) = dictionary.content {
        for element in elements {
          recordTyped(element.value, source: source, depth: depth + 1)
        }
      }
    } else if let call = expression.as(FunctionCallExprSyntax.self),
      let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil,
      member.declName.baseName.text == "init"
    {
      // `.init(stringLiteral: "Hidden")`, `.init(title: "On", subtitle: "...")`,
      // `.init("key", defaultValue: "...")`: the localized type's own initialiser.
      let call = Array(call.arguments)
      for (index, argument) in call.enumerated() {
        let label = argument.label?.text
        let isLocalized =
          label == nil
          ? index == 0
          : ["stringLiteral", "title", "subtitle", "name", "full", "supporting"].contains(label)
        if isLocalized {
          recordTyped(argument.expression, source: source, arguments: call, depth: depth + 1)
        }
      }
    } else if let ternary = expression.as(TernaryExprSyntax.self) {
      if overloaded {
        for branch in [ternary.thenExpression, ternary.elseExpression]
        where !isLiteralLike(branch) {
          guard let type = inferType(branch), TargetDeclarations.isLocalized(type) else { return }
        }
      }
      recordTyped(ternary.thenExpression, source: source, depth: depth + 1)
      recordTyped(ternary.elseExpression, source: source, depth: depth + 1)
    } else if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
      let inner = tuple.elements.first?.expression
    {
      recordTyped(inner, source: source, depth: depth + 1)
    } else if let switchExpression = expression.as(SwitchExprSyntax.self) {
      for case .switchCase(let switchCase) in switchExpression.cases {
        recordBranch(switchCase.statements, source: source, depth: depth)
      }
    } else if let ifExpression = expression.as(IfExprSyntax.self) {
      recordBranch(ifExpression.body.statements, source: source, depth: depth)
      switch ifExpression.elseBody {
      case .codeBlock(let block): recordBranch(block.statements, source: source, depth: depth)
      case .ifExpr(let nested): recordTyped(ExprSyntax(nested), source: source, depth: depth + 1)
      case nil: break
      }
    }
  }

  /// Whether an expression is string literals only: a literal, or a ternary or parentheses
  /// of them.
  func isLiteralLike(_ expression: ExprSyntax, depth: Int = 0) -> Bool {
    guard depth < 32 else { return false }
    if expression.is(StringLiteralExprSyntax.self) { return true }
    if let ternary = expression.as(TernaryExprSyntax.self) {
      return isLiteralLike(ternary.thenExpression, depth: depth + 1)
        && isLiteralLike(ternary.elseExpression, depth: depth + 1)
    }
    if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1,
      let inner = tuple.elements.first?.expression
    {
      return isLiteralLike(inner, depth: depth + 1)
    }
    return false
  }

  /// The literals of a body (a branch, a getter) that is a single expression.
  private func recordBranch(_ statements: CodeBlockItemListSyntax, source: String, depth: Int) {
    guard statements.count == 1, let item = statements.first?.item else { return }
    if let expression = item.as(ExprSyntax.self) {
      recordTyped(expression, source: source, depth: depth + 1)
    } else if let statement = item.as(ExpressionStmtSyntax.self) {
      recordTyped(statement.expression, source: source, depth: depth + 1)
    }
  }

  override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind {
    pushParameters(node.parameterClause.parameters)
    return .visitChildren
  }
  override func visitPost(_ node: SubscriptDeclSyntax) { scopes.removeLast() }

  override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
    scopes.append([:])
    returnsLocalized.append(false)
    // `ForEach(counts, id: \.self) { count in ... }`: the one parameter is an element.
    let element = forEachElementType(of: node)
    // `ForEach([25, 50], id: \.self) { Text("\($0) Solves") }`.
    if node.signature == nil, let element { declare("$0", element) }
    if let parameters = node.signature?.parameterClause {
      switch parameters {
      case .simpleInput(let names):
        for name in names { declare(name.name.text, names.count == 1 ? element : nil) }
      case .parameterClause(let clause):
        for parameter in clause.parameters {
          declare(
            (parameter.secondName ?? parameter.firstName).text,
            parameter.type?.trimmedDescription ?? (clause.parameters.count == 1 ? element : nil))
        }
      }
    }
    return .visitChildren
  }

  /// The element type of the collection a `ForEach` whose content `closure` is walks.
  func forEachElementType(of closure: ClosureExprSyntax) -> String? {
    var parent = closure.parent
    if parent?.is(LabeledExprSyntax.self) == true { parent = parent?.parent?.parent }
    guard let call = parent?.as(FunctionCallExprSyntax.self),
      call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "ForEach",
      let data = call.arguments.first, data.label == nil
    else { return nil }
    // `0..<phaseCount` counts in the type of its named bound (an Int16 stays one).
    if let range = data.expression.as(InfixOperatorExprSyntax.self),
      ["..<", "..."].contains(range.operator.trimmedDescription)
    {
      for bound in [range.rightOperand, range.leftOperand]
      where !bound.is(IntegerLiteralExprSyntax.self) {
        if let type = inferType(bound) { return type }
      }
      return "Int"
    }
    return inferType(data.expression).flatMap(LiteralTypes.elementType)
  }

  /// `if let count = ...`, `guard let count`: the name has the value's type unwrapped.
  override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
    guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else {
      return .visitChildren
    }
    var type =
      node.typeAnnotation?.type.trimmedDescription
      ?? node.initializer.flatMap { inferType($0.value) }
      ?? (node.initializer == nil ? (lookup(name) ?? nil) ?? declarations.propertyType(name) : nil)
    while let unwrapped = type, unwrapped.hasSuffix("?") || unwrapped.hasSuffix("!") {
      type = String(unwrapped.dropLast())
    }
    declare(name, type)
    return .visitChildren
  }
  override func visitPost(_ node: ClosureExprSyntax) {
    scopes.removeLast()
    returnsLocalized.removeLast()
  }

  override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind {
    scopes.append([:])
    return .visitChildren
  }
  override func visitPost(_ node: CodeBlockSyntax) { scopes.removeLast() }

  /// `case let .hours(h):` and `case .hours(let h):`: the names a case binds, with the types
  /// of the enum case's associated values, in a scope of the case's own.
  override func visit(_ node: SwitchCaseSyntax) -> SyntaxVisitorContinueKind {
    scopes.append([:])
    if case .case(let label) = node.label {
      var bound: [String: String?] = [:]
      for item in label.caseItems {
        for (name, type) in caseBindings(item.pattern) {
          // Names bound by several patterns of one case: known only when they agree.
          if let earlier = bound[name], earlier != type {
            bound[name] = .some(nil)
          } else {
            bound[name] = .some(type)
          }
        }
      }
      for (name, type) in bound { declare(name, type) }
    }
    return .visitChildren
  }
  override func visitPost(_ node: SwitchCaseSyntax) { scopes.removeLast() }

  /// `if case .hours(let h) = interval`: as a switch's case binds them, in the scope around
  /// (as `if let` names are).
  override func visit(_ node: MatchingPatternConditionSyntax) -> SyntaxVisitorContinueKind {
    for (name, type) in caseBindings(node.pattern) { declare(name, type) }
    return .visitChildren
  }

  /// The names an enum case pattern binds and their types (nil where unknown): `.hours(let
  /// h)`, `let .hours(h)`, `Interval.hours(let h)`.
  func caseBindings(_ pattern: PatternSyntax, bindsAll: Bool = false) -> [(String, String?)] {
    if let binding = pattern.as(ValueBindingPatternSyntax.self) {
      return caseBindings(binding.pattern, bindsAll: true)
    }
    guard
      let call = pattern.as(ExpressionPatternSyntax.self)?.expression
        .as(FunctionCallExprSyntax.self),
      let member = call.calledExpression.as(MemberAccessExprSyntax.self)
    else { return [] }
    let caseName = member.declName.baseName.text
    var result: [(String, String?)] = []
    for (position, argument) in call.arguments.enumerated() {
      let expression = argument.expression
      var name: String?
      if let inner = expression.as(PatternExprSyntax.self)?.pattern {
        if let binding = inner.as(ValueBindingPatternSyntax.self) {
          name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
        } else if bindsAll {
          name = inner.as(IdentifierPatternSyntax.self)?.identifier.text
        }
      } else if bindsAll {
        name = expression.as(DeclReferenceExprSyntax.self)?.baseName.text
      }
      guard let name, name != "_" else { continue }
      result.append(
        (
          name,
          declarations.associatedValueType(
            ofCase: caseName, at: position, count: call.arguments.count)
        ))
    }
    return result
  }

  override func visit(_ node: ForStmtSyntax) -> SyntaxVisitorContinueKind {
    // `for i in 0..<n`, `for (index, item) in items.enumerated()`: the body's scope is the
    // code block's, pushed next; the loop names go in one of their own.
    scopes.append([:])
    let sequence = node.sequence
    if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
      let isRange =
        sequence.as(InfixOperatorExprSyntax.self).map {
          ["..<", "..."].contains($0.operator.trimmedDescription)
        } ?? sequence.trimmedDescription.hasSuffix(".indices")
      declare(name, isRange ? "Int" : nil)
    } else if let tuple = node.pattern.as(TuplePatternSyntax.self) {
      let enumerated = sequence.trimmedDescription.hasSuffix(".enumerated()")
      for (index, element) in tuple.elements.enumerated() {
        if let name = element.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
          declare(name, enumerated && index == 0 ? "Int" : nil)
        }
      }
    }
    return .visitChildren
  }
  override func visitPost(_ node: ForStmtSyntax) { scopes.removeLast() }

  override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
    for binding in node.bindings {
      let type = binding.typeAnnotation?.type
      // `let title: LocalizedStringKey = "Inbox"` is a localized literal too.
      if let type, TargetDeclarations.isLocalized(type), let value = binding.initializer?.value {
        recordTyped(value, source: "a \(type.trimmedDescription) value")
      } else if let type, let value = binding.initializer?.value {
        recordTupleElements(value, type: type.trimmedDescription)
      }
      guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
      else { continue }
      // An App Intents requirement declared without its type: `static var description =
      // "Complete this reminder"` in an intent is an `IntentDescription`.
      if type == nil, scopes.count == 1, appIntentsTypes.last == true,
        let required = LocalizedAPIs.appIntentsRequirements[name],
        let value = binding.initializer?.value
      {
        recordTyped(value, source: "a \(required) value")
      }
      // Only inside a function: a type's properties are the target's declarations.
      guard scopes.count > 1 else { continue }
      declare(
        name,
        type?.trimmedDescription ?? binding.initializer.flatMap { inferType($0.value) })
    }
    return .visitChildren
  }

  /// The localized elements of tuples declared with their type: `let groups: [(title:
  /// LocalizedStringKey, regions: [Region])] = [("North", [.north]), ...]`, or one tuple.
  func recordTupleElements(_ value: ExprSyntax, type: String) {
    var type = type
    var tuples: [ExprSyntax] = [value]
    if type.hasPrefix("["), type.hasSuffix("]"), let array = value.as(ArrayExprSyntax.self) {
      type = String(type.dropFirst().dropLast())
      tuples = array.elements.map(\.expression)
    }
    guard let elements = TypeSpellings.parenthesisedElements(type),
      elements.contains(where: { TargetDeclarations.isLocalized($0.type) })
    else { return }
    for case let tuple? in tuples.map({ $0.as(TupleExprSyntax.self) })
    where tuple.elements.count == elements.count {
      for (element, declared) in zip(tuple.elements, elements)
      where TargetDeclarations.isLocalized(declared.type) {
        recordTyped(element.expression, source: "a \(declared.type) tuple element")
      }
    }
  }

  // MARK: Calls

  override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
    let arguments = Array(node.arguments)
    var name: String?
    var isMember = false
    if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) {
      name = reference.baseName.text
    } else if let member = node.calledExpression.as(MemberAccessExprSyntax.self) {
      name = member.declName.baseName.text
      // `Text.init("...")` and `SwiftUI.Text("...")` are the type's.
      if name == "init", let base = member.base {
        name = base.trimmedDescription.split(separator: ".").last.map(String.init)
      } else if let base = member.base?.trimmedDescription,
        base == "SwiftUI" || base == "Foundation"
      {
        isMember = false
      } else {
        isMember = true
      }
    }
    guard let name else { return .visitChildren }
    // A function the project names beside `NSLocalizedString` in
    // LOCALIZED_STRING_MACRO_NAMES: its key, table, value and comment, as that one's.
    if !isMember, localizedFunctionNames.contains(name),
      let key = arguments.first, key.label == nil,
      let literal = key.expression.as(StringLiteralExprSyntax.self)
    {
      record(literal, source: "NSLocalizedString", arguments: arguments)
      return .visitChildren
    }
    // `.init(localized: "Back")`: only String and AttributedString have that label.
    if name == "init", isMember,
      let argument = arguments.first(where: { $0.label?.text == "localized" })
    {
      recordTyped(argument.expression, source: "String", arguments: arguments)
      return .visitChildren
    }
    // An App Shortcut's phrases go to their own table.
    if name == "AppShortcut", !isMember,
      let phrases = arguments.first(where: { $0.label?.text == "phrases" })
    {
      let first = strings.count
      recordTyped(phrases.expression, source: name)
      for index in strings.indices.dropFirst(first) {
        strings[index].table = LocalizedAPIs.appShortcutPhrasesTable
      }
    }
    // The target's own functions first: they may shadow SwiftUI's names. Called on no value
    // (or on `self`) inside a type that declares methods of that name, only that type's
    // count: `showToast(message:)` of this view, not another view's of the same name.
    var callables = declarations.callables[name] ?? []
    var plainCallables = declarations.plainCallables[name] ?? []
    let onSelf =
      !isMember
      || node.calledExpression.as(MemberAccessExprSyntax.self)?.base?
        .as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
    if onSelf,
      let owner = typeNames.last(where: { type in
        (callables + plainCallables).contains { $0.owner == type }
      })
    {
      callables = callables.filter { $0.owner == owner }
      plainCallables = plainCallables.filter { $0.owner == owner }
    }
    if !callables.isEmpty, let positions = matchedPositions(arguments, callables) {
      // Where a `String` overload takes the literal too, the literal goes there.
      var plain: Set<Int> = []
      for overload in plainCallables {
        plain.formUnion(matchedPositions(arguments, [overload]) ?? [])
      }
      // The function's other arguments are its own (`value:` of `StatCard(title:value:)`
      // is no default value): the key converts to a `LocalizedStringKey` on its own, with no
      // table, comment or value, as Xcode extracts it.
      for index in positions where !plain.contains(index) {
        recordTyped(arguments[index].expression, source: name)
      }
      return .visitChildren
    }
    // Swift Charts' `.value("Match Number", point.number)` (`PlottableValue.value(_:_:)`, and
    // `unit:` for dates), in a mark's `x:` or a `foregroundStyle(by:)`: its label is a
    // `LocalizedStringKey`.
    if name == "value", importsCharts, arguments.count >= 2,
      arguments.prefix(2).allSatisfy({ $0.label == nil }),
      let member = node.calledExpression.as(MemberAccessExprSyntax.self),
      member.base == nil || member.base?.trimmedDescription == "PlottableValue"
    {
      recordTyped(arguments[0].expression, source: ".value", overloaded: true)
      return .visitChildren
    }
    // A closure the code holds with localized parameters: `let showToast: (LocalizedStringKey)
    // -> Void`, called `showToast("trip_added")`.
    // (Another type's method of the name, which these arguments do not fit, is not it.)
    if onSelf, let type = closureType(name, isMember: isMember),
      let parameters = TypeSpellings.functionParameterTypes(type),
      parameters.count == arguments.count, arguments.allSatisfy({ $0.label == nil })
    {
      for (index, parameter) in parameters.enumerated()
      where TargetDeclarations.isLocalized(parameter) {
        recordTyped(arguments[index].expression, source: "a \(parameter) parameter of \(name)")
      }
      return .visitChildren
    }
    let positions = (isMember ? LocalizedAPIs.modifiers[name] : LocalizedAPIs.types[name]) ?? []
    for position in positions {
      let argument: LabeledExprSyntax?
      switch position {
      case .firstUnlabeled:
        // Only when the first argument is unlabeled: `Text(verbatim:)` is not localized.
        argument = arguments.first.flatMap { $0.label == nil ? $0 : nil }
      case .label(let label):
        argument = arguments.first { $0.label?.text == label }
      }
      if let argument {
        recordTyped(
          argument.expression, source: isMember ? ".\(name)" : name, arguments: arguments,
          overloaded: true)
      }
    }
    return .visitChildren
  }

  /// The declared type of a name called as a function that may hold a closure: a local or
  /// parameter, or a property of the type around (not another type's: a closure property is
  /// rarely unique to one name across a target).
  func closureType(_ name: String, isMember: Bool) -> String? {
    if !isMember, let scoped = lookup(name) { return scoped }
    for type in typeNames.reversed() {
      if let own = declarations.memberType(of: type, name) { return own }
    }
    return nil
  }

  /// The argument positions of localized parameters, when `arguments` fit one of the
  /// callables (labels in order, parameters with defaults skipped).
  func matchedPositions(
    _ arguments: [LabeledExprSyntax], _ callables: [TargetDeclarations.LocalizedCallable]
  ) -> [Int]? {
    for callable in callables {
      var parameter = 0
      var positions: [Int] = []
      var fits = true
      for (index, argument) in arguments.enumerated() {
        let label = argument.label?.text
        while parameter < callable.labels.count, callable.labels[parameter] != label {
          parameter += 1
        }
        guard parameter < callable.labels.count else {
          fits = false
          break
        }
        if callable.localized.contains(parameter) { positions.append(index) }
        parameter += 1
      }
      if fits { return positions }
    }
    return nil
  }

  // MARK: Recording

  override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
    // Without type inference (and its warnings): each interpolation is `%@`.
    if let text = joined(node, interpolation: { _ in "%@" }) { literals.insert(text) }
    return .visitChildren
  }

  /// Set when a specifier was guessed (`%@` for a type not known) since it was last cleared.
  var guessedSpecifier = false

  func record(_ literal: StringLiteralExprSyntax, source: String, arguments: [LabeledExprSyntax]?) {
    // `NSLocalizedString` takes a `String`: an interpolated literal is built at run time, it
    // is no key, and Xcode extracts none (NetNewsWire's "delete the account “\(name)”").
    if source == "NSLocalizedString",
      literal.segments.contains(where: { $0.is(ExpressionSegmentSyntax.self) })
    {
      return
    }
    // An optional interpolated (`\(user?.name)`) fits none of a localized string's
    // interpolations, so the literal is a plain `String`: `Text` takes its verbatim overload,
    // and Xcode extracts nothing (a localized-only API would not compile).
    if literal.segments.contains(where: { segment in
      segment.as(ExpressionSegmentSyntax.self)?.expressions.first.map {
        Self.isOptionalChain($0.expression)
      } ?? false
    }) {
      return
    }
    guessedSpecifier = false
    guard let key = text(of: literal) else { return }
    let uncertain = guessedSpecifier
    let location = literal.startLocation(converter: converter)
    var found = ExtractedString(
      key: key, file: path, line: location.line, column: location.column, source: source)
    found.uncertainSpecifiers = uncertain
    for argument in arguments ?? [] {
      guard let label = argument.label?.text else { continue }
      let literal = argument.expression.as(StringLiteralExprSyntax.self)
      if label == "comment" {
        found.comment = literal.flatMap { text(of: $0) }
      } else if LocalizedAPIs.tableLabels.contains(label) {
        found.table = literal?.representedLiteralValue
      } else if label == "bundle" {
        found.bundle = argument.expression.trimmedDescription
      } else if LocalizedAPIs.isDefaultValue(label: label, source: source), let literal {
        found.defaultValue = text(of: literal)
      }
    }
    strings.append(found)
  }

  /// Whether `expression` is an optional chain's value: `user?.name`, `items?.first?.title`,
  /// `model?.total()` (not unwrapped with `!` or `??`, which are other expressions).
  static func isOptionalChain(_ expression: ExprSyntax) -> Bool {
    var node = expression
    while true {
      if node.is(OptionalChainingExprSyntax.self) { return true }
      if let member = node.as(MemberAccessExprSyntax.self), let base = member.base {
        node = base
      } else if let call = node.as(FunctionCallExprSyntax.self) {
        node = call.calledExpression
      } else if let subscriptCall = node.as(SubscriptCallExprSyntax.self) {
        node = subscriptCall.calledExpression
      } else {
        return false
      }
    }
  }

  /// A literal's text as its key: interpolations as format specifiers, `%` doubled where
  /// there are any (as the interpolation types write the format).
  func text(of literal: StringLiteralExprSyntax) -> String? {
    joined(literal) { specifier($0, in: literal) }
  }

  /// A literal's text with each interpolation written by `interpolation`, `%` doubled in
  /// the text around them.
  func joined(
    _ literal: StringLiteralExprSyntax, interpolation: (ExpressionSegmentSyntax) -> String
  ) -> String? {
    if let plain = literal.representedLiteralValue { return plain }
    guard let kind = literal.stringLiteralKind else { return nil }
    var key = ""
    for segment in literal.segments {
      switch segment {
      case .stringSegment(let text):
        var piece = ""
        if text.hasError {
          piece = text.content.text
        } else {
          text.appendUnescapedLiteralValue(
            stringLiteralKind: kind, delimiterLength: literal.delimiterLength, to: &piece)
        }
        key += piece.replacingPercents()
      case .expressionSegment(let segment):
        key += interpolation(segment)
      }
    }
    return key
  }

  /// The specifier of one interpolation: given (`specifier:`), formatted (`format:`,
  /// `formatter:`, `style:`: `%@`), or from the value's type.
  func specifier(_ interpolation: ExpressionSegmentSyntax, in literal: StringLiteralExprSyntax)
    -> String
  {
    let parts = Array(interpolation.expressions)
    for part in parts.dropFirst() {
      guard let label = part.label?.text else { continue }
      if label == "specifier",
        let given = part.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
      {
        return given
      }
      if ["format", "formatter", "style"].contains(label) { return "%@" }
    }
    guard let value = parts.first?.expression else { return "%@" }
    // App Intents' placeholders: a parameter (`\(\.$count)`) and the app's name
    // (`\(.applicationName)`) are written `${count}` and `${applicationName}`.
    if let keyPath = value.as(KeyPathExprSyntax.self), keyPath.root == nil,
      keyPath.components.count == 1,
      case .property(let property) = keyPath.components.first?.component,
      property.declName.baseName.text.hasPrefix("$")
    {
      return "${\(property.declName.baseName.text.dropFirst())}"
    }
    if let member = value.as(MemberAccessExprSyntax.self), member.base == nil,
      member.declName.baseName.text == "applicationName"
    {
      return "${applicationName}"
    }
    if let type = inferType(value), let specifier = FormatSpecifiers.specifier(forType: type) {
      return specifier
    }
    guessedSpecifier = true
    let location = interpolation.startLocation(converter: converter)
    let spelling = value.trimmedDescription
    diagnostics.append(
      Diagnostic(
        .warning, path: path, line: location.line, column: location.column,
        "cannot tell the type of '\(spelling)': extracted as %@, which Xcode writes only for strings and objects; make it certain with \\(\(spelling) as Int) (or the type it has), or a type on its declaration",
        rule: Diagnostic.Rule(name: "unknown-interpolation-type")))
    return "%@"
  }

  /// The type an expression is cast to: `x as? T`, `(x as! T)`, `(x as? T)?`; nil otherwise.
  func castType(_ expression: ExprSyntax) -> String? {
    var expression = expression
    while true {
      if let chained = expression.as(OptionalChainingExprSyntax.self) {
        expression = chained.expression
      } else if let forced = expression.as(ForceUnwrapExprSyntax.self) {
        expression = forced.expression
      } else if let paren = expression.as(TupleExprSyntax.self), paren.elements.count == 1,
        let inner = paren.elements.first?.expression
      {
        expression = inner
      } else {
        break
      }
    }
    return expression.as(AsExprSyntax.self)?.type.trimmedDescription
  }

  /// The type of an expression, from literals, the names in scope and the target's
  /// declarations; nil when it cannot be known without type checking.
  func inferType(_ expression: ExprSyntax) -> String? {
    if let type = LiteralTypes.type(of: expression) { return type }
    // `try importCSV(...)`, `await load()`: the value's type.
    if let attempt = expression.as(TryExprSyntax.self) { return inferType(attempt.expression) }
    if let awaited = expression.as(AwaitExprSyntax.self) { return inferType(awaited.expression) }
    if let cast = expression.as(AsExprSyntax.self), cast.questionOrExclamationMark == nil {
      return cast.type.trimmedDescription
    }
    if let paren = expression.as(TupleExprSyntax.self), paren.elements.count == 1,
      let inner = paren.elements.first?.expression
    {
      return inferType(inner)
    }
    if let reference = expression.as(DeclReferenceExprSyntax.self) {
      let name = reference.baseName.text
      if let scoped = lookup(name) { return scoped }
      // Inside a type, its own property before any other type's of that name.
      for type in typeNames.reversed() {
        if let own = declarations.memberType(of: type, name) { return own }
      }
      return declarations.propertyType(name)
    }
    if let member = expression.as(MemberAccessExprSyntax.self) {
      let name = member.declName.baseName.text
      // `(session as? MultiphaseSession)?.phaseCount`: the member of the type cast to.
      if let base = member.base, let type = castType(base),
        let memberType = declarations.memberType(of: type, name)
      {
        return memberType
      }
      // `self.calories`: the type's own.
      if member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self),
        let type = typeNames.last, let own = declarations.memberType(of: type, name)
      {
        return own
      }
      // `recipe.calories` where `recipe` is an `AIChefRecipe` (or `snack?.calories`): the
      // property that type declares.
      if let base = member.base, var type = inferType(base) {
        while type.hasSuffix("?") || type.hasSuffix("!") { type.removeLast() }
        // `result.imported` of a `(imported: Int, invalidCycles: Int)`.
        if let element = TypeSpellings.tupleElementType(type, label: name) { return element }
        if let own = declarations.memberType(of: type, name) { return own }
      }
      if ["count", "startIndex", "endIndex", "underestimatedCount"].contains(name) {
        return "Int"
      }
      if ["description", "localizedDescription", "debugDescription"].contains(name) {
        return "String"
      }
      return declarations.propertyType(name)
    }
    // The Defaults library's `Defaults[.leadTime]`: its key's value type.
    if let subscriptCall = expression.as(SubscriptCallExprSyntax.self),
      subscriptCall.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
        == "Defaults",
      subscriptCall.arguments.count == 1,
      let key = subscriptCall.arguments.first?.expression.as(MemberAccessExprSyntax.self),
      key.base == nil
    {
      return declarations.defaultsKeyType(key.declName.baseName.text)
    }
    // `randomNumbers[index]` of an `[Int]`: its element (a dictionary's optional value is no
    // localized interpolation, and is not known here).
    if let subscriptCall = expression.as(SubscriptCallExprSyntax.self),
      subscriptCall.arguments.count == 1, subscriptCall.arguments.first?.label == nil,
      let collection = inferType(subscriptCall.calledExpression)
    {
      return LiteralTypes.elementType(collection)
    }
    if let call = expression.as(FunctionCallExprSyntax.self) {
      if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
        let name = member.declName.baseName.text
        if name == "formatted" { return "String" }
        // Swift Charts' `value.as(Int.self)`: an optional of the type asked for.
        if name == "as", call.arguments.count == 1,
          let metatype = call.arguments.first?.expression.as(MemberAccessExprSyntax.self),
          metatype.declName.baseName.text == "self", let type = metatype.base
        {
          return type.trimmedDescription + "?"
        }
        // Calendar's `component(_:from:)` and `distance(from:to:)` of collections.
        if name == "component" || name == "distance" { return "Int" }
        return declarations.resultType(name)
      }
      if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
        return declarations.resultType(reference.baseName.text)
      }
    }
    if let ternary = expression.as(TernaryExprSyntax.self) {
      return inferType(ternary.thenExpression) ?? inferType(ternary.elseExpression)
    }
    // `reading?.percent ?? 0`: the default's type, or the value's unwrapped.
    if let infix = expression.as(InfixOperatorExprSyntax.self),
      infix.operator.trimmedDescription == "??"
    {
      // A number literal takes the value's type (`price ?? 0` is a Double when `price` is a
      // `Double?`); another default is the type.
      let literal =
        infix.rightOperand.is(IntegerLiteralExprSyntax.self)
        || infix.rightOperand.is(FloatLiteralExprSyntax.self)
      let fallback = inferType(infix.rightOperand)
      if let fallback, !literal { return fallback }
      guard var type = inferType(infix.leftOperand) else { return fallback }
      while type.hasSuffix("?") || type.hasSuffix("!") { type.removeLast() }
      return type
    }
    // A member reached through `?.` is optional: `offer?.trialDays` is an `Int?`.
    if let chained = expression.as(OptionalChainingExprSyntax.self) {
      return inferType(chained.expression)
    }
    // Arithmetic keeps its operands' type: `retries * 10` is an Int when `retries` is; a
    // named operand decides (`2 * interval` is a Double when `interval` is), else a literal.
    if let infix = expression.as(InfixOperatorExprSyntax.self),
      ["+", "-", "*", "/", "%"].contains(infix.operator.trimmedDescription)
    {
      let operands = [infix.leftOperand, infix.rightOperand]
      let named = operands.filter {
        !$0.is(IntegerLiteralExprSyntax.self) && !$0.is(FloatLiteralExprSyntax.self)
      }
      if let type = named.lazy.compactMap({ self.inferType($0) }).first { return type }
      // Only a literal's type is known (`index + 1`): a number of the other operand's type,
      // which may be narrower (`Int16` from a Core Data model writes `%d`): a guess.
      if !named.isEmpty { guessedSpecifier = true }
      return operands.lazy.compactMap { self.inferType($0) }.first
    }
    return nil
  }
}

extension String {
  /// `%` written `%%`: a literal percent in a format.
  func replacingPercents() -> String {
    contains("%") ? replacingOccurrences(of: "%", with: "%%") : self
  }
}

/// The APIs whose string-literal arguments Xcode extracts: SwiftUI views and modifiers whose
/// parameter is a `LocalizedStringKey` (or `LocalizedStringResource`), and Foundation's
/// localized initialisers.
enum LocalizedAPIs {
  /// Where the localized argument is: the first unlabeled one, or the one with this label.
  enum Position: Hashable {
    case firstUnlabeled
    case label(String)
  }

  /// Views and types called by name: `Text("...")`, `String(localized: "...")`.
  static let types: [String: [Position]] = {
    var table: [String: [Position]] = [:]
    for view in [
      "Text", "Button", "Label", "Toggle", "Section", "Picker", "Link", "Menu", "NavigationLink",
      "TextField", "SecureField", "Stepper", "DatePicker", "MultiDatePicker", "ColorPicker",
      "ProgressView", "GroupBox", "DisclosureGroup", "LabeledContent", "Tab",
      "ContentUnavailableView", "ShareLink", "TextFieldLink", "RenameButton", "EditButton",
      "LocalizedStringKey", "LocalizedStringResource", "NSLocalizedString", "Gauge",
      // Scenes, tables, menus, pickers and widget controls whose title is a key.
      "Window", "WindowGroup", "UtilityWindow", "MenuBarExtra", "TableColumn", "CommandMenu",
      "ControlGroup", "PhotosPicker", "TabSection", "ControlWidgetButton", "ControlWidgetToggle",
      "AccessoryWidgetGroup", "SharePreview",
      // App Intents: a parameter summary, a dialog, a description.
      "Summary", "IntentDialog", "IntentDescription",
    ] {
      table[view] = [.firstUnlabeled]
    }
    table["String"] = [.label("localized")]
    table["AttributedString"] = [.label("localized")]
    // `LocalizedStringResource(stringLiteral: "...")` is the literal's own initialiser.
    table["LocalizedStringResource"] = [.firstUnlabeled, .label("stringLiteral")]
    table["LocalizedStringKey"] = [.firstUnlabeled, .label("stringLiteral")]
    // App Intents' representations: `DisplayRepresentation(title: "...", subtitle: "...")`,
    // `TypeDisplayRepresentation(name: "...")`, and a shortcut's title (its phrases are
    // their own table, ``appShortcutPhrasesTable``).
    table["DisplayRepresentation"] = [
      .firstUnlabeled, .label("stringLiteral"), .label("title"), .label("subtitle"),
    ]
    table["TypeDisplayRepresentation"] = [
      .firstUnlabeled, .label("stringLiteral"), .label("name"),
    ]
    table["IntentDialog"] = [.firstUnlabeled, .label("full"), .label("supporting")]
    table["IntentDescription"] = [.firstUnlabeled, .label("categoryName")]
    table["AppShortcut"] = [.label("shortTitle")]
    // AlarmKit's buttons.
    table["AlarmButton"] = [.label("text")]
    return table
  }()

  /// Modifiers and methods called on a value: `.navigationTitle("...")`.
  static let modifiers: [String: [Position]] = [
    "navigationTitle": [.firstUnlabeled], "navigationSubtitle": [.firstUnlabeled],
    "navigationBarTitle": [.firstUnlabeled], "help": [.firstUnlabeled],
    "accessibilityLabel": [.firstUnlabeled], "accessibilityHint": [.firstUnlabeled],
    "accessibilityValue": [.firstUnlabeled], "alert": [.firstUnlabeled],
    "confirmationDialog": [.firstUnlabeled], "badge": [.firstUnlabeled],
    "accessibilityAction": [.label("named")], "searchable": [.label("prompt")],
    "navigationDocument": [], "tabItem": [],
    // Widgets.
    "configurationDisplayName": [.firstUnlabeled], "description": [.firstUnlabeled],
    "dialogSuppressionToggle": [.firstUnlabeled],
    // App Intents: what `perform()` returns and asks.
    "result": [.label("dialog")], "needsValueError": [.firstUnlabeled],
    "requestValue": [.firstUnlabeled], "requestConfirmation": [.label("dialog")],
    "requestDisambiguation": [.label("dialog")],
  ]

  /// Property wrappers of App Intents whose arguments are localized:
  /// `@Parameter(title: "Count", description: "...", requestValueDialog: "...")`.
  static let attributes: [String: Set<String>] = [
    "Parameter": ["title", "description", "requestValueDialog"],
    "Property": ["title"],
  ]

  /// The table Xcode extracts an `AppShortcut`'s phrases into.
  static let appShortcutPhrasesTable = "AppShortcuts"

  /// The types (protocols) whose conformers' requirements App Intents declares with
  /// localized types, so that `static var description = "..."` is one.
  static func isAppIntentsConformance(_ name: String) -> Bool {
    name.hasSuffix("Intent") || appIntentsProtocols.contains(name)
  }

  static let appIntentsProtocols: Set<String> = [
    "AppEnum", "AppEntity", "TransientAppEntity", "IndexedEntity", "UniqueAppEntity",
    "AppIntent", "AppShortcutsProvider",
  ]

  /// The requirements of App Intents' protocols, by name, with their types: an unannotated
  /// `static var title = "Open"` in an intent is a `LocalizedStringResource`.
  static let appIntentsRequirements: [String: String] = [
    "title": "LocalizedStringResource",
    "description": "IntentDescription",
    "typeDisplayRepresentation": "TypeDisplayRepresentation",
    "caseDisplayRepresentations": "[Self: DisplayRepresentation]",
    "displayRepresentation": "DisplayRepresentation",
  ]

  /// The labels of a call's table, bundle, comment and default value.
  static let tableLabels: Set<String> = ["table", "tableName"]

  /// Whether the argument labelled `label` of a call found in `source` is the key's default
  /// value: `defaultValue:` of `String(localized:)` and `LocalizedStringResource`, `value:`
  /// of `NSLocalizedString` only (`LabeledContent("Version", value: "1.0")` shows a value of
  /// its own: Xcode extracts "Version" with none).
  static func isDefaultValue(label: String, source: String) -> Bool {
    label == "defaultValue" || (label == "value" && source == "NSLocalizedString")
  }
}

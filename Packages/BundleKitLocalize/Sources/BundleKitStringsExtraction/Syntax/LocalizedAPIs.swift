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
    ] {
      table[view] = [.firstUnlabeled]
    }
    table["String"] = [.label("localized")]
    table["AttributedString"] = [.label("localized")]
    // `LocalizedStringResource(stringLiteral: "...")` is the literal's own initialiser.
    table["LocalizedStringResource"] = [.firstUnlabeled, .label("stringLiteral")]
    table["LocalizedStringKey"] = [.firstUnlabeled, .label("stringLiteral")]
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
  ]

  /// The labels of a call's table, bundle, comment and default value.
  static let tableLabels: Set<String> = ["table", "tableName"]
  static let defaultValueLabels: Set<String> = ["defaultValue", "value"]
}

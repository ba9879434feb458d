import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitPropertyListCore

/// The localizable strings of a document whose translations live in
/// `<lang>.lproj/<document name>.strings`, keyed by ids the document gives them, as Xcode
/// exports them.
///
/// - An Interface Builder document (a storyboard or a XIB), as `ibtool
///   --export-strings-file` lists it: one string for each localizable property of each
///   object, named `<object id>.<property>` (`3i8-2m-QFG.text`), noted `Class = "UILabel";
///   text = "…"; ObjectID = "3i8-2m-QFG";`.
/// - An intent definition: each text whose key has a sibling `…ID` key (`INIntentTitle`
///   and `INIntentTitleID`), named by that id (`80eo5o`), with no note.
enum DocumentStrings {
  /// One localizable string of a document.
  struct Entry: Equatable {
    /// `<object id>.<property>`.
    var id: String
    /// The text as the document holds it.
    var value: String
    /// What ibtool writes as its comment, and Xcode as the unit's note.
    var note: String
  }

  /// The platform a document is built for, which names its classes.
  private enum Runtime {
    case iOS, watch, mac

    /// The class ibtool names for an element: `label` is `UILabel` on iOS,
    /// `WKInterfaceLabel` on watchOS, `textFieldCell` is `NSTextFieldCell` on macOS.
    func className(_ element: String) -> String {
      let capitalized = element.prefix(1).uppercased() + element.dropFirst()
      switch self {
      case .iOS: return "UI" + capitalized
      case .watch:
        return element == "controller" ? "WKInterfaceController" : "WKInterface" + capitalized
      case .mac: return "NS" + capitalized
      }
    }
  }

  /// The properties ibtool exports, by element, on each platform. A property is an
  /// attribute of the element or a `<string key="…">` child (a text with line breaks).
  private static let properties: [Runtime: [String: [String]]] = [
    .iOS: [
      "label": ["text"], "textField": ["text", "placeholder"], "textView": ["text"],
      "navigationItem": ["title", "prompt", "backButtonTitle"], "barButtonItem": ["title"],
      "tabBarItem": ["title"], "searchBar": ["text", "placeholder", "prompt"],
      "tableViewSection": ["headerTitle", "footerTitle"],
    ],
    .watch: [
      "label": ["text"], "button": ["title"], "controller": ["title"], "switch": ["title"],
      "textField": ["text", "placeholder"], "menuItem": ["title"],
    ],
    .mac: [
      "textFieldCell": ["title", "placeholderString"], "buttonCell": ["title", "alternateTitle"],
      "menuItem": ["title"], "menu": ["title"], "window": ["title"], "tabViewItem": ["label"],
      "tableHeaderCell": ["title"], "box": ["title"],
      "searchFieldCell": ["title", "placeholderString"],
    ],
  ]

  /// Every localizable string of the document `bytes` (at `path`), in document order.
  static func entries(_ bytes: [UInt8], path: String) throws(PropertyListError) -> [Entry] {
    if isIntentDefinition(path) { return try intentEntries(bytes, path: path) }
    let root = try XMLElementReader.read(bytes, path: path)
    let targetRuntime = root.attributes["targetRuntime"] ?? ""
    let runtime: Runtime =
      targetRuntime.hasPrefix("watchKit")
      ? .watch : targetRuntime.hasPrefix("MacOSX") ? .mac : .iOS
    let table = properties[runtime] ?? [:]
    var entries: [Entry] = []
    // Depth first, in document order, on an explicit stack (the reader bounds the depth).
    var pending = [root]
    while let element = pending.popLast() {
      pending.append(contentsOf: element.children.reversed())
      guard let id = element.attributes["id"] else { continue }
      let className = runtime.className(element.name)
      func add(_ property: String, _ value: String, shown: String? = nil) {
        guard !value.isEmpty else { return }
        entries.append(
          Entry(
            id: id + "." + property, value: value,
            note:
              "Class = \"\(className)\"; \(shown ?? property) = \(StringsFile.literal(value)); ObjectID = \"\(id)\";"
          ))
      }
      var names = table[element.name] ?? []
      // Every controller's title (view, table view, navigation, tab bar ... controllers).
      if runtime != .watch, element.name.hasSuffix("Controller"), !names.contains("title") {
        names.append("title")
      }
      for name in names {
        if let value = value(of: name, in: element) { add(name, value) }
      }
      if runtime == .iOS, element.name == "button" {
        // A title for each state: `<state key="normal" title="Start"/>` is `normalTitle`.
        for state in element.children(named: "state") {
          guard let key = state.attributes["key"], let value = value(of: "title", in: state)
          else { continue }
          add(key + "Title", value)
        }
      }
      if runtime == .iOS, element.name == "segmentedControl" {
        let segments = element.child(named: "segments")?.children(named: "segment") ?? []
        for (index, segment) in segments.enumerated() {
          guard let value = segment.attributes["title"] else { continue }
          // ibtool names the property with the object's id in the comment.
          let property = "segmentTitles[\(index)]"
          add(property, value, shown: id + "." + property)
        }
      }
    }
    return entries
  }

  /// A property's text: the attribute, or a `<string key="…">` child.
  private static func value(of name: String, in element: XMLElement) -> String? {
    if let value = element.attributes[name] { return value }
    return element.children(named: "string").first { $0.attributes["key"] == name }?.text
  }

  /// An intent definition's texts: each string whose key has a sibling `<key>ID` string,
  /// named by that id; the first of an id repeated.
  private static func intentEntries(_ bytes: [UInt8], path: String) throws(PropertyListError)
    -> [Entry]
  {
    let document = try PropertyListDocument(bytes: bytes)
    var entries: [Entry] = []
    var seen: Set<String> = []
    // Depth first, in document order, on an explicit stack (the reader bounds the depth).
    var pending = [document.value]
    while let value = pending.popLast() {
      switch value {
      case .dictionary(let dictionary):
        for (key, item) in dictionary {
          if key.hasSuffix("ID"), case .string(let id) = item,
            case .string(let text)? = dictionary[String(key.dropLast(2))], !text.isEmpty,
            seen.insert(id).inserted
          {
            entries.append(Entry(id: id, value: text, note: ""))
          }
        }
        pending.append(contentsOf: dictionary.map(\.value).reversed())
      case .array(let items):
        pending.append(contentsOf: items.reversed())
      default:
        break
      }
    }
    return entries
  }

  /// Whether `path` names an intent definition.
  static func isIntentDefinition(_ path: String) -> Bool { path.hasSuffix(".intentdefinition") }

  /// Whether `path` names a document whose strings this reads: a storyboard, a XIB or an
  /// intent definition.
  static func isDocument(_ path: String) -> Bool {
    path.hasSuffix(".storyboard") || path.hasSuffix(".xib") || isIntentDefinition(path)
  }

  /// `DIR/Base.lproj/Main.storyboard` for `de`: `DIR/de.lproj/Main.strings`, where the
  /// document's translation lives.
  static func translationPath(_ path: String, language: String) -> String? {
    StringsExchange.translatedPath(path, language: language).map {
      Paths.removingExtension($0) + ".strings"
    }
  }

  /// The entries as the `.strings` table ibtool writes (each note as its comment), which an
  /// import merges translations into.
  static func stringsTable(_ entries: [Entry]) -> [UInt8] {
    var text = ""
    for entry in entries {
      text += entry.note.isEmpty ? "\n" : "\n/* \(entry.note) */\n"
      text += "\(StringsFile.literal(entry.id)) = \(StringsFile.literal(entry.value));\n"
    }
    return Array(text.utf8)
  }
}

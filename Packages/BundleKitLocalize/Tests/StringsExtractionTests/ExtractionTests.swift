import BundleKitStringsExtraction
import BundleKitTestSupport
import Foundation
import Testing

/// Extraction as Xcode's build extracts: what is found, the keys' specifiers, what is not.
@Suite struct ExtractionTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  func extract(_ source: String, file: String = "A.swift") -> SwiftStringExtractor.Result {
    SwiftStringExtractor().extract([(file, source)])
  }

  func keys(_ source: String) -> [String] { extract(source).strings.map(\.key) }

  @Test("a SwiftUI app's views: every localized literal, with tables, values and comments")
  func inboxFixture() throws {
    let folder = Self.fixtures.appendingPathComponent("Inbox")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      .map { name in
        (name, try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
      }
    let result = SwiftStringExtractor().extract(files)
    let found = result.strings.map { string in
      [
        "\(string.file):\(string.line)", string.key, string.table ?? "-",
        string.defaultValue ?? "-", string.comment ?? "-",
      ].joined(separator: " | ")
    }
    let expected = [
      "InboxView.swift:22 | Today | - | - | -",
      "InboxView.swift:28 | %lld messages, %lld unread | - | - | -",
      "InboxView.swift:29 | Signed in as %@ | - | - | -",
      "InboxView.swift:33 | Summary | - | - | Header of the summary section",
      "InboxView.swift:36 | Inbox | - | - | -",
      "InboxView.swift:37 | Search mail | - | - | -",
      "InboxView.swift:39 | Compose | - | - | -",
      "InboxView.swift:43 | Delete All | - | - | -",
      "InboxView.swift:46 | Delete all messages? | - | - | -",
      "InboxView.swift:47 | Delete | - | - | -",
      "InboxView.swift:48 | Cancel | - | - | -",
      "InboxView.swift:59 | From %@ | - | - | -",
      "InboxView.swift:61 | %lld attachments (%.1f MB) | - | - | -",
      "InboxView.swift:62 | Flagged | - | - | -",
      "InboxView.swift:63 | Marks the message for follow-up | - | - | -",
      "InboxView.swift:64 | Delete | - | - | Swipe action that deletes one message",
      "Settings.swift:32 | Account | - | - | -",
      "Settings.swift:33 | Sync every %lf minutes | - | - | -",
      "Settings.swift:34 | Notifications | - | - | -",
      "Settings.swift:35 | Retries: %lld | - | - | -",
      "Settings.swift:36 | Storage: %lld bytes | - | - | -",
      "Settings.swift:37 | Quota used: %f | - | - | -",
      "Settings.swift:38 | Progress: %lld%% | - | - | -",
      "Settings.swift:39 | Help | Settings | - | Opens the help page",
      "Settings.swift:40 | Privacy Policy | Settings | - | -",
      "Settings.swift:48 | welcome.title | Onboarding | Welcome to Inbox | Title of the first onboarding page",
      "Settings.swift:51 | legacy.error | Errors | Something went wrong | Generic error",
      "Settings.swift:52 | Saved | - | - | Shown after saving",
      "Settings.swift:53 | **Bold** move | - | - | -",
      "Settings.swift:54 | Archive | - | - | -",
      "Settings.swift:56 | %lld items in %@ | - | - | -",
      "Settings.swift:60 | Value: %@ | - | - | -",
    ]
    #expect(found == expected, "\(found.joined(separator: "\n"))")
    #expect(result.strings.first { $0.key == "Privacy Policy" }?.bundle == ".module")
    // The one interpolation no declaration types is a warning at its place.
    #expect(result.diagnostics.map(\.location) == ["Settings.swift:60:31"])
    #expect(result.diagnostics.first?.message.contains("\\(mystery as Int)") == true)
  }

  @Test("interpolations get the specifiers Xcode writes, type by type")
  func specifiers() {
    let source = ##"""
      import SwiftUI
      struct V: View {
        let i: Int; let i32: Int32; let i16: Int16; let i8: Int8; let i64: Int64
        let u: UInt; let u32: UInt32; let u16: UInt16; let u8: UInt8; let u64: UInt64
        let d: Double; let g: CGFloat; let f: Float; let s: String; let date: Date
        let items: [String]
        var body: some View {
          Text("\(i) \(i32) \(i16) \(i8) \(i64)")
          Text("\(u) \(u32) \(u16) \(u8) \(u64)")
          Text("\(d) \(g) \(f) \(s)")
          Text("\(date, style: .date) \(d, format: .number) \(d, specifier: "%.2f")")
          Text("\(items.count) of \(3) at \(2.5) named \("x")")
          Text("\(i as Int32) \(Double(i)) \(i > 0 ? i : 0) \((i))")
          Text("100% of \(i)%")
          Text("100% done")
          Text(#"a "raw" \(i) \#(i)"#)
          Text("tab\tquote\"emoji\u{1F600}")
          Text("""
            Line one
            Line \(i)
            """)
        }
      }
      """##
    #expect(
      keys(source) == [
        "%lld %d %d %d %lld", "%llu %u %u %u %llu", "%lf %lf %f %@", "%@ %@ %.2f",
        "%lld of %lld at %lf named %@", "%d %lf %lld %lld", "100%% of %lld%%", "100% done",
        #"a "raw" \(i) %lld"#, "tab\tquote\"emoji\u{1F600}", "Line one\nLine %lld",
      ])
  }

  @Test(
    "not extracted: verbatim, variables, plain String parameters, other calls, NSLocalizedString of an interpolated literal"
  )
  func notExtracted() {
    let source = #"""
      import SwiftUI
      func log(_ message: String) {}
      struct V: View {
        let title: String
        var body: some View {
          // A String built at run time (NetNewsWire's; Xcode extracts none).
          let _ = NSLocalizedString("Delete the account “\(title)”?", comment: "Delete text")
          Text(verbatim: "v1.0")
          Text(title)
          Button(title) {}
          Label(title, systemImage: "x")
          log("not for translators")
          print("debug")
          Image("logo")
          Color("AccentColor")
          Text(String(localized: title))
        }
      }
      """#
    #expect(keys(source).isEmpty)
  }

  @Test("an enum whose raw type is localized: a case without a raw value is its name")
  func implicitRawValues() {
    // The shape of real apps: `SortOrder` for a picker, as Xcode's catalogs hold it.
    let source = ##"""
      import SwiftUI
      enum SortOrder: LocalizedStringResource, CaseIterable {
        case status, title, `author`
        case newest = "Newest first"
      }
      enum Plain: String { case hidden }
      enum Mode: LocalizedStringKey { case timer }
      """##
    let result = SwiftStringExtractor().extract([("Sort.swift", source)])
    #expect(
      result.strings.map { "\($0.key)@\($0.line):\($0.column)" } == [
        "status@3:8", "title@3:16", "author@3:23", "Newest first@4:17", "timer@7:38",
      ],
      "\(result.strings.map(\.key))")
  }

  @Test("an enum case's associated values bound by a pattern have their declared types")
  func caseBindings() {
    let source = ##"""
      import SwiftUI
      enum Interval { case minutes(Int), hours(Int), custom(label: String, seconds: Double) }
      enum Notice { case tooLong(maxLength: Int); case named(String) }
      enum Other { case named(Int) }
      struct Picker: View {
        let interval: Interval
        var body: some View {
          switch interval {
          case let .minutes(m): Text("\(m) min")
          case .hours(let h): Text("\(h) hr")
          case .custom(let label, let seconds): Text("\(label): \(seconds) s")
          }
        }
        func message(_ notice: Notice) -> String {
          switch notice {
          case .tooLong(let maxLength): String(localized: "At most \(maxLength) characters")
          case .named(let name): String(localized: "Named \(name)")
          }
        }
        var badge: some View {
          if case .hours(let count) = interval { Text("\(count) hours") } else { Text("None") }
        }
      }
      """##
    let result = SwiftStringExtractor().extract([("Picker.swift", source)])
    #expect(
      result.strings.map(\.key) == [
        "%lld min", "%lld hr", "%@: %lf s", "At most %lld characters", "Named %@",
        "%lld hours", "None",
      ],
      "\(result.strings.map(\.key))")
    // `named` is a `String` in one enum and an `Int` in another: a guess.
    #expect(
      result.strings.map(\.uncertainSpecifiers) == [false, false, false, false, true, false, false])
  }

  @Test("a property of the Defaults library's @Default(.key) has its key's value type")
  func defaultsKeys() {
    let keys = ##"""
      import Defaults
      extension Defaults.Keys {
        static let leadTime = Key<Int>("leadTime", default: 5)
        static let volume = Defaults.Key<Double>("volume", default: 0.5)
        static let nickname = Key<String?>("nickname")
      }
      """##
    let view = ##"""
      import SwiftUI
      import Defaults
      struct SettingsView: View {
        @Default(.leadTime) var leadTime
        @Default(.volume) var loudness
        @Default(.nickname) var nickname
        var body: some View {
          Text("\(leadTime) min")
          Text("\(loudness) dB")
          Text("Hello \(nickname ?? "you")")
          Text("\(Defaults[.leadTime]) left")
        }
      }
      """##
    let result = SwiftStringExtractor().extract([("Keys.swift", keys), ("Settings.swift", view)])
    #expect(
      result.strings.map(\.key) == ["%lld min", "%lf dB", "Hello %@", "%lld left"],
      "\(result.strings.map(\.key))")
    #expect(result.strings.allSatisfy { !$0.uncertainSpecifiers })
  }

  @Test("a nested type's members, whether its name is written with its outer type or not")
  func nestedTypeMembers() {
    let source = ##"""
      import SwiftUI
      struct Snapshot { struct AirQuality { let index: Int }; struct Wind {} }
      extension Snapshot.Wind { var speed: Double { 0 } }
      // Other types' members of those names: the target-wide guess cannot tell.
      struct Page { let index: String; let speed: String }
      struct AirGauge: View {
        let info: Snapshot.AirQuality
        let wind: Snapshot.Wind
        var body: some View { Text("\(info.index) AQI, \(wind.speed) km/h") }
      }
      extension Snapshot {
        struct Panel: View {
          let wind: Wind
          var body: some View { Text("\(wind.speed) m/s") }
        }
      }
      """##
    let result = SwiftStringExtractor().extract([("Gauge.swift", source)])
    #expect(
      result.strings.map(\.key) == ["%lld AQI, %lf km/h", "%lf m/s"],
      "\(result.strings.map(\.key))")
  }

  @Test("Swift Charts' .value labels are keys, in a file that imports Charts")
  func chartValues() {
    let chart = ##"""
      import SwiftUI
      import Charts
      struct Progress: View {
        let points: [Point]
        var body: some View {
          Chart(points) { point in
            LineMark(x: .value("Match Number", point.number), y: .value("Win Rate", point.rate))
              .foregroundStyle(by: .value("Deck", point.deck))
            RuleMark(y: PlottableValue.value("Zéro", 0))
            BarMark(x: .value("Day", point.date, unit: .day), y: .value("Total", point.total))
          }
        }
        func other(_ store: Store) { store.value("not a label", 1) }
      }
      """##
    let elsewhere = ##"""
      struct Store { func value(_ key: String, _ count: Int) {} }
      func use(_ store: Store) { store.value("plain", 2) }
      func implicit() -> Setting { .value("also plain", 3) }
      """##
    let result = SwiftStringExtractor().extract([
      ("Progress.swift", chart), ("Store.swift", elsewhere),
    ])
    #expect(
      result.strings.map(\.key) == ["Match Number", "Win Rate", "Deck", "Zéro", "Day", "Total"],
      "\(result.strings.map(\.key))")
  }

  @Test("tuples' labelled elements, try and await, a computed property's locals, value.as(T.self)")
  func tuplesAndLocals() {
    let source = ##"""
      import SwiftUI
      import Charts
      struct Importer {
        func importCSV(_ url: URL) throws -> (imported: Int, skipped: [String: Int]) { (0, [:]) }
        var weekStats: (weekday: Int, weekendShare: Double) { (1, 0.5) }
      }
      struct Dashboard: View {
        let importer: Importer
        func report(_ url: URL) throws -> String {
          let result = try importer.importCSV(url)
          return String(localized: "Imported \(result.imported)")
        }
        func picks(_ numbers: [Int], _ names: [String: Double]) -> some View {
          Text("\(numbers[0]) or \(numbers[numbers.count - 1])")
        }
        func chart(_ stats: (weekday: Int, weekendShare: Double)) -> some View {
          Text("\(stats.weekday) on weekdays, \(stats.weekendShare) at weekends")
        }
        var body: some View {
          let saved = Bool.random() ? 0 : 12
          Chart {}
            .chartYAxis { AxisMarks { value in AxisValueLabel { if let v = value.as(Int.self) { Text("\(v)") } } } }
            .overlay(Text("Saved $\(saved)"))
        }
      }
      """##
    let result = SwiftStringExtractor().extract([("Dashboard.swift", source)])
    #expect(
      result.strings.map(\.key) == [
        "Imported %lld", "%lld or %lld", "%lld on weekdays, %lf at weekends", "%lld", "Saved $%lld",
      ],
      "\(result.strings.map(\.key))")
    #expect(result.strings.allSatisfy { !$0.uncertainSpecifiers })
  }

  @Test("a type's own method before another's of the name; closures and tuples typed localized")
  func ownMethodsClosuresTuples() {
    // TPASS's shapes: two views with a `showToast(message:)` each, one taking a `String`; a
    // view modifier holding `let showToast: (LocalizedStringKey) -> Void`; tables of tuples.
    let views = ##"""
      import SwiftUI
      struct TripList: View {
        func showToast(message: LocalizedStringKey) {}
        var body: some View {
          Button("Copy") { showToast(message: "copied_day") }
            .onAppear { self.showToast(message: "trip_added") }
        }
      }
      struct Importer: View {
        func showToast(message: String) {}
        var body: some View { Button("Import") { showToast(message: "imported as text") } }
      }
      struct Sheets: ViewModifier {
        let showToast: (LocalizedStringKey) -> Void
        let log: (String) -> Void
        func body(content: Content) -> some View {
          content.sheet(isPresented: .constant(true)) {
            EditView(onSuccess: { showToast("trip_updated") }, onDelete: { log("deleted") })
          }
        }
      }
      struct StatCard: View {
        let title: LocalizedStringKey; let value: String; var comment: String = ""
        var body: some View { Text(title) }
      }
      struct Summary: View {
        var body: some View { StatCard(title: "breakeven_rate", value: "12%", comment: "none") }
      }
      struct Regions: View {
        private let groups: [(title: LocalizedStringKey, regions: [Int])] = [
          ("group_north", [1, 2]), ("group_south", [3]),
        ]
        let slots: [(LocalizedStringKey, Int, Int)] = [("morning", 0, 0), ("night", 0, 0)]
        let names: [(String, Int)] = [("not a key", 1)]
        var body: some View { Text("Regions") }
      }
      """##
    let result = SwiftStringExtractor().extract([("Views.swift", views)])
    #expect(
      result.strings.map(\.key) == [
        "Copy", "copied_day", "trip_added", "Import", "trip_updated", "breakeven_rate",
        "group_north", "group_south", "morning", "night", "Regions",
      ],
      "\(result.strings.map(\.key))")
    // A memberwise initialiser's `value:` and `comment:` are the view's own, not the key's.
    let card = result.strings.first { $0.key == "breakeven_rate" }
    #expect(card?.defaultValue == nil && card?.comment == nil, "\(String(describing: card))")
  }

  @Test("a default value only where the API takes one: LabeledContent's value is its own")
  func defaultValues() {
    let source = ##"""
      import SwiftUI
      struct About: View {
        let days: Int
        var body: some View {
          LabeledContent("Version", value: "1.0")
          LabeledContent("Waiting days", value: "\(days) d")
          Text(NSLocalizedString("about.title", value: "About", comment: "Title"))
          Text(String(localized: "about.footer", defaultValue: "Made with care"))
        }
      }
      """##
    let result = SwiftStringExtractor().extract([("About.swift", source)])
    #expect(
      result.strings.map { "\($0.key)=\($0.defaultValue ?? "-")" } == [
        "Version=-", "Waiting days=-", "about.title=About", "about.footer=Made with care",
      ],
      "\(result.strings.map(\.key))")
  }

  @Test("a literal interpolating an optional chain is a String, not localized")
  func optionalInterpolation() {
    let source = ##"""
      import SwiftUI
      struct Profile: View {
        let user: User?
        var body: some View {
          Text("image \(user?.profileImage)")
          Text("name \(user?.name ?? "")")
          Text("first \(user?.names.first)")
          Text("count \(user!.count)")
        }
      }
      """##
    let result = SwiftStringExtractor().extract([("Profile.swift", source)])
    #expect(result.strings.map(\.key) == ["name %@", "count %lld"], "\(result.strings.map(\.key))")
  }

  @Test(
    "inside a type, its own property's type, though other types give the name other types"
  )
  func ownMembers() {
    // The shape of a real app: many views each with a `value` or `calories` of their own.
    let widget = ##"""
      import SwiftUI
      struct MacroWidget: View {
        let calories: Int
        let title: String; let value: Int; let color: Color
        var body: some View {
          Text("\(calories)")
          Text("\(value) \(title)")
          Text("\(self.value)")
          Card(calories: "x").body
        }
      }
      extension MacroWidget {
        var footer: some View { Text("\(calories) left") }
      }
      """##
    let others = ##"""
      struct Card { let calories: String; let value: Double?
        var body: some View { Text("\(calories) \(value ?? 0)") }
      }
      struct Row { var value: String = "" }
      struct Recipe { let calories: Int; let title: String; let state: RenewalState.RawValue }
      struct RecipeRow: View {
        let recipe: Recipe
        let spare: Recipe?
        var body: some View {
          Text("\(recipe.calories) kcal \(spare?.calories ?? 0)")
          Text("state=\(recipe.state)")
        }
      }
      """##
    let result = SwiftStringExtractor().extract([
      ("Widget.swift", widget), ("Others.swift", others),
    ])
    #expect(
      result.strings.map(\.key) == [
        "%@ %lf", "%lld kcal %lld", "state=%@", "%lld", "%lld %@", "%lld", "%lld left",
      ],
      "\(result.strings.map(\.key))")
    // An associated type only the compiler resolves stays a guess, which sync matches to
    // the catalog's key whatever its specifier.
    #expect(
      result.strings.map(\.uncertainSpecifiers) == [false, false, true, false, false, false, false])
  }

  @Test("the target's own functions and initialisers with localized parameters")
  func ownDeclarations() {
    let source = #"""
      import SwiftUI
      struct Badge: View {
        init(_ title: LocalizedStringKey, count: Int = 0, note: LocalizedStringResource = "none") {}
        var body: some View { EmptyView() }
      }
      extension View {
        func banner(title: LocalizedStringKey, message: String) -> some View { self }
      }
      func row(_ label: String, detail: LocalizedStringKey) -> some View { Text(detail) }
      struct Screen: View {
        var body: some View {
          Badge("New")
          Badge("Unread", count: 3, note: "Counts unread mail")
          EmptyView().banner(title: "Offline", message: "not extracted")
          row("not extracted", detail: "Details")
        }
      }
      """#
    #expect(keys(source) == ["none", "New", "Unread", "Counts unread mail", "Offline", "Details"])
  }

  @Test("literals typed localized anywhere: assignments, results, arrays, switch and ternary")
  func typedContexts() {
    let source = #"""
      import SwiftUI

      enum Sorting {
        case newest, oldest, popular

        var title: LocalizedStringKey {
          switch self {
          case .newest: "Newest first"
          case .oldest: "Oldest first"
          case .popular: "Most liked"
          }
        }

        var hint: LocalizedStringResource { self == .newest ? "Latest on top" : "Earliest on top" }
      }

      let welcome = LocalizedStringResource(stringLiteral: "Welcome back")

      final class Feed {
        var emptyTitle: LocalizedStringResource = "Nothing here yet"
        var suggestions: [LocalizedStringResource]
        var debugName: String = "feed"

        init(suggestions: [LocalizedStringResource] = ["Follow a friend", "Try a hashtag"]) {
          self.suggestions = suggestions
        }

        func reset(offline: Bool) {
          emptyTitle = offline ? "You are offline" : "Nothing here yet"
          self.emptyTitle = "Pull to refresh"
          debugName = "reset"
        }

        func status(count: Int) -> LocalizedStringResource {
          if count == 0 { return "No posts" }
          return "\(count) posts"
        }
      }

      let feed = Feed(suggestions: ["Invite people", "Explore"])
      let label = Text(isNew ? "New" : "Seen")
      """#
    #expect(
      keys(source) == [
        "Newest first", "Oldest first", "Most liked", "Latest on top", "Earliest on top",
        "Welcome back", "Nothing here yet", "Follow a friend", "Try a hashtag", "You are offline",
        "Nothing here yet", "Pull to refresh", "No posts", "%lld posts", "Invite people",
        "Explore", "New", "Seen",
      ])
  }

  @Test("source that does not compile, or is hostile, is read without a crash")
  func hostileSource() {
    let cases = [
      "Text(\"unterminated",
      "Text(\"\\(\")",
      String(repeating: "(", count: 10_000) + "Text(\"deep\")",
      String(repeating: "Text(\"a\"); ", count: 20_000),
      "\u{FEFF}Text(\"bom\")",
      "Text(\"\\u{D800}\")",
    ]
    for source in cases {
      _ = extract(source)
    }
    #expect(extract(String(repeating: "Text(\"a\"); ", count: 20_000)).strings.count == 20_000)
  }

  @Test("'[' runs that make Swift's parser exponential or overflow it are reported, not parsed")
  func bracketRuns() {
    let cases = [
      "let y: " + String(repeating: "[", count: 40) + "Int" + String(repeating: "]", count: 40),
      "let y = " + String(repeating: "[", count: 3000) + String(repeating: "]", count: 3000),
      "let y = " + String(repeating: "[ \n", count: 30) + String(repeating: "]", count: 30),
    ]
    for source in cases {
      let result = extract("Text(\"kept\")\n" + source)
      #expect(result.strings.isEmpty)
      #expect(result.diagnostics.count == 1)
      #expect(result.diagnostics.first?.message.hasPrefix("not read: ") == true)
      #expect(result.diagnostics.first?.line == 2)
    }
    // In strings and comments they do not count; real nesting a few deep is read.
    let fine = """
      let s = "\(String(repeating: "[", count: 40))"
      // \(String(repeating: "[", count: 40))
      let m: [[[Int]]] = [[[1]]]
      Text("read")
      """
    #expect(extract(fine).strings.map(\.key) == ["read"])
  }

  @Test("a file over the size limit is reported, not parsed")
  func sizeLimit() {
    var extractor = SwiftStringExtractor()
    extractor.maximumFileSize = 100
    let result = extractor.extract([("Big.swift", String(repeating: "Text(\"a\")\n", count: 50))])
    #expect(result.strings.isEmpty)
    #expect(result.diagnostics.first?.path == "Big.swift")
    #expect(result.diagnostics.first?.severity == .error)
  }

  @Test(
    "100,000 chained + operands, .bold() calls or nested ternaries: an error at the line, no stack overflow"
  )
  func deepChains() {
    let cases = [
      "let a = Text(\"x\")\nlet s = "
        + Array(repeating: "x", count: 100_000).joined(separator: " + "),
      "let a = Text(\"x\")\nlet t = Text(\"y\")" + String(repeating: ".bold()", count: 100_000),
      "let a = Text(\"x\")\nlet c = "
        + String(repeating: "c ? 1 : ", count: 50_000) + "0",
    ]
    for source in cases {
      let result = extract(source)
      #expect(result.strings.isEmpty)
      #expect(result.diagnostics.count == 1, "\(result.diagnostics)")
      #expect(result.diagnostics.first?.severity == .error)
      #expect(result.diagnostics.first?.line == 2, "\(result.diagnostics)")
      #expect(result.diagnostics.first?.column == 1, "\(result.diagnostics)")
    }
    // 5,000 nested parentheses: swift-syntax's own nesting limit stops its parser first.
    _ = extract(
      "let p = " + String(repeating: "(", count: 5_000) + String(repeating: ")", count: 5_000))
    // Long but shallow code is read: 2,000 statements, a 400-operand sum.
    let long =
      String(repeating: "Text(\"a\")\n", count: 2_000) + "let s = "
      + Array(repeating: "1", count: 400).joined(separator: " + ")
    #expect(extract(long).strings.count == 2_000)
  }

  /// Each found string as `line key [table]`.
  func found(_ source: String) -> [String] {
    extract(source).strings.map { string in
      "\(string.line) \(string.key)" + (string.table.map { " [\($0)]" } ?? "")
    }
  }

  @Test("App Intents: titles, descriptions, parameters, summaries, dialogs, enums, shortcuts")
  func appIntents() {
    let source = #"""
      import AppIntents

      struct SetSearch: AppIntent {
        static var title: LocalizedStringResource = "Set Search"
        static var description = "Turn search on or off."
        @Parameter(title: "Operation", description: "What to do", default: .turn)
        var operation: Operation
        @Parameter(title: "Keyword", requestValueDialog: "Which keyword?")
        var keyword: String
        static var parameterSummary: some ParameterSummary {
          When(\.$operation, .equalTo, .turn) {
            Summary("\(\.$operation) search for \(\.$keyword)")
          } otherwise: {
            Summary("\(\.$operation) search")
          }
        }
        func perform() async throws -> some IntentResult & ProvidesDialog {
          if keyword.isEmpty { throw $keyword.needsValueError("Enter a keyword") }
          return .result(dialog: IntentDialog("Done"))
        }
      }

      struct Reminder: WidgetConfigurationIntent {
        static var title: LocalizedStringResource { "Configuration" }
        static var description: IntentDescription { "Shows the next reminder" }
        @Parameter(title: "Show Reminders", default: true) var showReminders: Bool
        var debugName = "not a requirement"
      }

      enum Operation: String, AppEnum {
        case turn, toggle, hidden
        static var typeDisplayRepresentation = TypeDisplayRepresentation(name: "Operation")
        static let caseDisplayRepresentations: [Operation: DisplayRepresentation] = [
          .turn: "Turn",
          .toggle: .init(stringLiteral: "Toggle"),
          .hidden: .init(title: "Hidden", subtitle: "Not shown"),
        ]
      }

      struct Account: AppEntity {
        static let typeDisplayRepresentation: TypeDisplayRepresentation = .init(stringLiteral: "Account")
        @Property(title: "Handle") var handle: String
        var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(handle)") }
      }

      struct Shortcuts: AppShortcutsProvider {
        static var appShortcuts: [AppShortcut] {
          AppShortcut(
            intent: SetSearch(),
            phrases: ["Set search in \(.applicationName)", "Search with \(.applicationName)"],
            shortTitle: "Set search",
            systemImageName: "magnifyingglass"
          )
        }
      }

      struct NotAnIntent {
        static var title = "not extracted"
        static var description = "not extracted either"
      }
      """#
    #expect(
      found(source) == [
        "4 Set Search", "5 Turn search on or off.", "6 Operation", "6 What to do", "8 Keyword",
        "8 Which keyword?", "12 ${operation} search for ${keyword}", "14 ${operation} search",
        "18 Enter a keyword", "19 Done", "24 Configuration", "25 Shows the next reminder",
        "26 Show Reminders", "32 Operation", "34 Turn", "35 Toggle", "36 Hidden", "36 Not shown",
        "41 Account", "42 Handle", "43 %@", "50 Set search in ${applicationName} [AppShortcuts]",
        "50 Search with ${applicationName} [AppShortcuts]", "51 Set search",
      ])
  }

  @Test("the app's own types: memberwise initialisers and enum cases with localized values")
  func memberwiseInitializers() {
    let source = #"""
      import SwiftUI
      enum Templates {
        struct IconLabel: View {
          @Environment(\.dismiss) var dismiss
          let icon: String
          let text: String.LocalizationValue
          var body: some View { Text(String(localized: text)) }
        }
      }
      struct SettingRow: View {
        let title: LocalizedStringKey
        var detail: LocalizedStringResource = "None"
        let fixed: LocalizedStringKey = "not a parameter"
        var computed: LocalizedStringKey { "Computed" }
        static var shared: LocalizedStringKey = "Shared"
        var body: some View { Text(title) }
      }
      struct Custom: View {
        let title: LocalizedStringKey
        init(name: String) { title = "Custom" }
        var body: some View { Text(title) }
      }
      struct Screen: View {
        var body: some View {
          Templates.IconLabel(icon: "gear", text: "Settings")
          SettingRow(title: "settings.size")
          SettingRow(title: "Sync", detail: "Every hour")
          Custom(name: "not extracted")
        }
        var status: Status { .invalid(description: "Title is empty", code: 1) }
      }
      enum Status {
        case valid
        case invalid(description: LocalizedStringKey, code: Int)
        case other(String)
      }
      let other = Status.other("not extracted")
      """#
    #expect(
      found(source) == [
        "12 None", "13 not a parameter", "14 Computed", "15 Shared", "20 Custom", "25 Settings",
        "26 settings.size", "27 Sync", "27 Every hour", "30 Title is empty",
      ])
  }

  @Test(
    "what Xcode extracts and does not: scenes, tables, implicit .init, String ternaries, if false, #Preview"
  )
  func xcodesChoices() {
    let source = #"""
      import SwiftUI
      struct App: SwiftUI.App {
        let version: String
        let status: LocalizedStringKey
        var body: some Scene {
          Window("Main", id: "main") { EmptyView() }
          WindowGroup("Documents") { EmptyView() }
          MenuBarExtra("Menu", systemImage: "star") { EmptyView() }
          MenuBarExtra("Inserted", image: "logo", isInserted: .constant(true)) { EmptyView() }
        }
        func views() -> some View {
          Table(rows) { TableColumn("Name", value: \.name) }
          Text(version.isEmpty ? "Unknown" : version)
          Text(version.isEmpty ? "Yes" : "No")
          Text(version.isEmpty ? "Pending" : status)
          Toggle("", isOn: .constant(true))
          Button(.init(localized: "Back")) {}
          Text(String(localized: .init("key.back", defaultValue: "Go back")))
          if false { Text("Never") } else { Text("Else") }
          #if false
          Text("Never either")
          #endif
        }
      }
      #Preview { Text("Preview only") }
      """#
    #expect(
      found(source) == [
        "6 Main", "7 Documents", "8 Menu", "9 Inserted", "12 Name", "14 Yes", "14 No",
        "15 Pending", "16 ", "17 Back", "18 key.back", "19 Else",
      ])
  }

  @Test("an Int declared Int? elsewhere is still an Int: code that compiles interpolates the Int")
  func optionalDeclarations() {
    let source = #"""
      import SwiftUI
      struct Settings { var compression: Int = 0 }
      struct Overrides { var compression: Int? }
      struct V: View {
        let compression: Int
        var body: some View { Text("\(compression)%") }
      }
      """#
    #expect(keys(source) == ["%lld%%"])
  }

  @Test("interpolated Ints Xcode types: ?? 0, if/guard let, ForEach elements, Calendar components")
  func interpolatedInts() {
    let source = #"""
      import SwiftUI
      struct Offer { var trialDays: Int? }
      struct W: View {
        let offer: Offer?
        let reading: Reading?
        private let durations = Array(stride(from: 10, through: 40, by: 10)) + [60, 90]
        private let intervals = Array(1...30)
        var title: LocalizedStringKey {
          guard let trialDays = offer?.trialDays else { return "Continue" }
          return "Try for Free for \(trialDays) Days"
        }
        var body: some View {
          Text("\(reading?.percent ?? 0)%")
          ForEach(durations, id: \.self) { duration in Text("\(duration)") }
          ForEach(intervals, id: \.self) { interval in Text("\(interval) min") }
          ForEach(0..<5) { i in Text("Row \(i)") }
          ForEach([25, 50], id: \.self) { Text("\($0) Solves") }
          Text(String(localized: "Week \(Calendar.current.component(.weekOfYear, from: .now))"))
          ShareLink(item: url, preview: SharePreview("Share Code", image: Image("x")))
          AlarmButton(text: "Stop", textColor: .white, systemImageName: "stop.circle")
        }
      }
      """#
    let result = extract(source)
    #expect(
      result.strings.map(\.key) == [
        "Continue", "Try for Free for %lld Days", "%lld%%", "%lld", "%lld min", "Row %lld",
        "%lld Solves", "Week %lld", "Share Code", "Stop",
      ])
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    #expect(!result.strings.contains { $0.uncertainSpecifiers })
    let guessed = extract("let t = Text(\"\\(mystery) left\")\nlet u = Text(\"\\(3) right\")")
    #expect(guessed.strings.map(\.uncertainSpecifiers) == [true, false])
  }
}

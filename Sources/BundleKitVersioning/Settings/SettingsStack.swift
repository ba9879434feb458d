import BundleKitFileSystem
import BundleKitPropertyList

/// One `SETTING = value` of a build-settings level, and where it is written.
public struct SettingAssignment: Sendable, Hashable {
  /// The setting.
  public var setting: String
  /// The value as written (quotes of the project file removed).
  public var value: String
  /// The file that holds it.
  public var file: String
  /// The 1-based line.
  public var line: Int
  /// Where an edit of the value goes.
  public var place: VersionPlace

  /// `file:line: SETTING = value`, for the chain a resolution followed. A value that is no
  /// version is cut to a short excerpt (``ShownValue``), and not shown at all from a file
  /// that is not an `.xcconfig`, project or property list.
  public var description: String {
    let shown =
      file.hasSuffix(".xcconfig") || file.hasSuffix(".pbxproj") || file.hasSuffix(".plist")
      ? ShownValue.of(value) : "(value not shown: not an .xcconfig file)"
    return "\(file):\(line): \(Self.excerpt(setting)) = \(shown)"
  }

  /// At most 60 characters of `text`, cut with an ellipsis.
  static func excerpt(_ text: String) -> String {
    text.count <= 60 ? text : String(text.prefix(57)) + "..."
  }
}

/// What a setting resolves to for one target and configuration.
struct ResolvedSetting: Sendable, Hashable {
  /// The value.
  public var value: String
  /// The assignment whose literal the value is, reached through references alone (`A =
  /// $(B)`, `B = 12`): the one place to edit. Nil for a value built from several parts or
  /// one Xcode gives itself.
  var site: SettingAssignment?
  /// The assignments followed, strongest first.
  public var chain: [SettingAssignment]
  /// The value as the literals it is joined from, each with the assignment that writes it
  /// (nil for text written inside a composed value, such as the periods of
  /// `$(MAJOR).$(MINOR).$(PATCH)$(SUFFIX)`): how a bump edits a value built from several
  /// settings. Nil when a part comes from an operator or from Xcode itself.
  var pieces: [SettingPiece]? = nil
}

/// One literal part of a resolved value and the assignment that writes it.
struct SettingPiece: Sendable, Hashable {
  /// The text.
  var text: String
  /// The assignment whose whole value `text` is; nil for text inside a composed value.
  var site: SettingAssignment?
}

/// Why a setting could not be resolved: the message and the assignments that led there.
struct SettingError: Error, Sendable, Hashable {
  /// What is wrong.
  public var message: String
  /// The assignments followed, strongest first.
  public var chain: [SettingAssignment]
}

/// The levels Xcode reads one target's build settings from for one configuration, strongest
/// first: the target's settings in the project, the `.xcconfig` it is based on (its
/// `#include`s in place), the project's settings, the project's `.xcconfig`; then what Xcode
/// defines itself (`TARGET_NAME`, `SRCROOT` ...).
///
/// A value may refer to others: `$(NAME)`, `${NAME}`, `$(NAME:default=text)`. `$(inherited)`,
/// and a setting naming itself (`CURRENT_PROJECT_VERSION = $(CURRENT_PROJECT_VERSION)`), take
/// the value the setting has below the assignment: earlier in the same `.xcconfig` chain,
/// else at a weaker level. Any other name is resolved from the top, for the same target.
/// Conditional assignments (`NAME[sdk=...]`) are not read: they hold for some builds only.
struct SettingsStack: Sendable {
  /// One level: its assignments in order, the last of a setting winning.
  public struct Level: Sendable {
    /// What the level is, for messages.
    public var label: String
    /// The assignments, in order.
    let assignments: [SettingAssignment]
    /// Each setting's indices in `assignments`, ascending: a lookup costs the assignments of
    /// that name, not of the level (a hostile file chaining 10,000 settings made every step
    /// of a resolution scan all of them).
    private let indices: [String: [Int]]

    /// A level.
    public init(label: String, assignments: [SettingAssignment]) {
      self.label = label
      self.assignments = assignments
      var indices: [String: [Int]] = [:]
      for (index, assignment) in assignments.enumerated() {
        indices[assignment.setting, default: []].append(index)
      }
      self.indices = indices
    }

    /// The index of the last assignment of `setting` before `end`.
    func lastIndex(of setting: String, before end: Int) -> Int? {
      guard let list = indices[setting] else { return nil }
      // Binary search: the first position whose index is at or past `end`.
      var low = 0
      var high = list.count
      while low < high {
        let middle = (low + high) / 2
        if list[middle] < end { low = middle + 1 } else { high = middle }
      }
      return low == 0 ? nil : list[low - 1]
    }
  }

  /// The levels, strongest first.
  public var levels: [Level]
  /// The settings Xcode defines itself.
  var builtins: [String: String]

  /// A stack of levels over Xcode's own settings.
  public init(levels: [Level], builtins: [String: String]) {
    self.levels = levels
    self.builtins = builtins
  }

  /// The value of `setting`, or nil when nothing defines it. Throws when its value refers to
  /// a setting defined nowhere, to itself in a loop, or cannot be read.
  public func resolve(_ setting: String) throws(SettingError) -> ResolvedSetting? {
    var visiting = Evaluation()
    return try value(of: setting, from: Position(level: 0, index: .max), visiting: &visiting)
  }

  /// Evaluates `text` as if assigned to `setting` above every level (an Info.plist's
  /// `$(CURRENT_PROJECT_VERSION)`), with `origin` as the assignment that holds it.
  func evaluate(_ origin: SettingAssignment) throws(SettingError) -> ResolvedSetting {
    var visiting = Evaluation()
    return try evaluate(origin, at: Position(level: -1, index: 0), visiting: &visiting)
  }

  /// A place in the stack: a level and an index in it (searching looks below the index).
  struct Position: Hashable {
    var level: Int
    var index: Int
  }

  /// How deep references may chain (`A = $(B)`, `B = $(C)` ...) before resolution stops:
  /// real projects use a handful; a hostile one must not exhaust the stack.
  static let maximumDepth = 200
  /// The longest value resolution builds (`L0 = $(L1)$(L1)` doubling forty times would be a
  /// terabyte).
  static let maximumLength = 64 << 10
  /// The most assignments a chain keeps for messages.
  static let maximumChain = 64

  /// One resolution's state: the assignments being evaluated (a loop, and the depth) and
  /// the values already found, each assignment evaluated once (its value depends only on its
  /// place in the stack).
  struct Evaluation {
    var active: Set<Position> = []
    var known: [Position: ResolvedSetting] = [:]
  }

  private func value(
    of setting: String, from position: Position, visiting: inout Evaluation
  ) throws(SettingError) -> ResolvedSetting? {
    var level = max(position.level, 0)
    var limit = position.level < 0 ? Int.max : position.index
    while level < levels.count {
      if let index = levels[level].lastIndex(of: setting, before: limit) {
        return try evaluate(
          levels[level].assignments[index], at: Position(level: level, index: index),
          visiting: &visiting)
      }
      level += 1
      limit = .max
    }
    if let builtin = builtins[setting] {
      return ResolvedSetting(value: builtin, site: nil, chain: [])
    }
    return nil
  }

  private func evaluate(
    _ assignment: SettingAssignment, at position: Position, visiting: inout Evaluation
  ) throws(SettingError) -> ResolvedSetting {
    if let known = visiting.known[position] { return known }
    guard visiting.active.insert(position).inserted else {
      throw SettingError(
        message: "\(assignment.setting) refers to itself in a loop", chain: [assignment])
    }
    defer { visiting.active.remove(position) }
    guard visiting.active.count <= Self.maximumDepth else {
      throw SettingError(
        message:
          "\(assignment.setting): references chain more than \(Self.maximumDepth) settings deep",
        chain: [assignment])
    }
    let resolved = try evaluateOnce(assignment, at: position, visiting: &visiting)
    visiting.known[position] = resolved
    return resolved
  }

  private func evaluateOnce(
    _ assignment: SettingAssignment, at position: Position, visiting: inout Evaluation
  ) throws(SettingError) -> ResolvedSetting {
    let expression: SettingExpression
    switch SettingExpression.parse(assignment.value) {
    case .success(let parsed): expression = parsed
    case .failure(let problem):
      throw SettingError(message: problem.message, chain: [assignment])
    }
    if expression.isLiteral {
      return ResolvedSetting(
        value: assignment.value, site: assignment, chain: [assignment],
        pieces: [SettingPiece(text: assignment.value, site: assignment)])
    }
    // Below this assignment: `$(inherited)` and the setting's own name.
    let below = Position(level: position.level, index: position.index)
    if let name = expression.singleReference {
      let found: ResolvedSetting?
      do {
        found = try reference(name, in: assignment, below: below, visiting: &visiting)
      } catch {
        throw SettingError(message: error.message, chain: [assignment] + error.chain)
      }
      guard let found else {
        throw SettingError(
          message:
            "$(\(SettingAssignment.excerpt(name))) is defined nowhere: not in the project, its .xcconfig files, nor by Xcode",
          chain: [assignment])
      }
      return ResolvedSetting(
        value: found.value, site: found.site,
        chain: Array(([assignment] + found.chain).prefix(Self.maximumChain)),
        pieces: found.pieces)
    }
    var chain = [assignment]
    var pieces: [SettingPiece]? = []
    let value = try text(
      of: expression, in: assignment, below: below, chain: &chain, pieces: &pieces,
      visiting: &visiting)
    return ResolvedSetting(value: value, site: nil, chain: chain, pieces: pieces)
  }

  /// A reference's value: `inherited` and the assignment's own name look below it.
  private func reference(
    _ name: String, in assignment: SettingAssignment, below: Position, visiting: inout Evaluation
  ) throws(SettingError) -> ResolvedSetting? {
    if name == "inherited" || name == assignment.setting {
      return try value(of: assignment.setting, from: below, visiting: &visiting)
    }
    return try value(of: name, from: Position(level: 0, index: .max), visiting: &visiting)
  }

  /// The text of `expression`; `pieces`, when not nil, gets the literals it is joined from
  /// (and is set to nil when a part has none: an operator, a setting Xcode gives).
  private func text(
    of expression: SettingExpression, in assignment: SettingAssignment, below: Position,
    chain: inout [SettingAssignment], pieces: inout [SettingPiece]?, visiting: inout Evaluation
  ) throws(SettingError) -> String {
    var result = ""
    for part in expression.parts {
      switch part {
      case .text(let text):
        result += text
        pieces?.append(SettingPiece(text: text, site: nil))
      case .reference(let nameExpression, let operators):
        var noPieces: [SettingPiece]? = nil
        let name = try text(
          of: nameExpression, in: assignment, below: below, chain: &chain, pieces: &noPieces,
          visiting: &visiting)
        if !operators.isEmpty || nameExpression.singleReference != nil { pieces = nil }
        var value: String?
        do {
          if let found = try reference(name, in: assignment, below: below, visiting: &visiting) {
            value = found.value
            chain += found.chain.prefix(max(Self.maximumChain - chain.count, 0))
            if let found = found.pieces, pieces != nil, (pieces?.count ?? 0) < 64 {
              pieces? += found
            } else {
              pieces = nil
            }
          }
        } catch {
          throw SettingError(message: error.message, chain: chain + error.chain)
        }
        for item in operators {
          switch item.name {
          case "default":
            if value?.isEmpty ?? true {
              value =
                try item.argument.map { (argument) throws(SettingError) in
                  var noPieces: [SettingPiece]? = nil
                  return try text(
                    of: argument, in: assignment, below: below, chain: &chain, pieces: &noPieces,
                    visiting: &visiting)
                } ?? ""
            }
          case "lower": value = value?.lowercased()
          case "upper": value = value?.uppercased()
          case "identifier", "c99extidentifier", "rfc1034identifier":
            value = value.map { Self.identifier($0, operator: item.name) }
          default:
            throw SettingError(
              message:
                "the operator ':\(SettingAssignment.excerpt(item.name))' in $(\(SettingAssignment.excerpt(name))) is not one BundleKit evaluates",
              chain: chain)
          }
        }
        guard let value else {
          throw SettingError(
            message:
              "$(\(SettingAssignment.excerpt(name))) is defined nowhere: not in the project, its .xcconfig files, nor by Xcode",
            chain: chain)
        }
        result += value
      }
      guard result.utf8.count <= Self.maximumLength else {
        throw SettingError(
          message:
            "\(assignment.setting) grows past \(Self.maximumLength >> 10) KiB as its references are expanded",
          chain: Array(chain.prefix(Self.maximumChain)))
      }
    }
    return result
  }

  /// `text` as Xcode's identifier operators make it: `identifier` keeps ASCII letters,
  /// digits and `_`, `c99extidentifier` every other letter too (`My App` -> `My_App`), each
  /// putting `_` before a leading digit; `rfc1034identifier` keeps ASCII letters, digits,
  /// `-` and `.`, writing `-` for the rest.
  static func identifier(_ text: String, operator name: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      let isASCIIAlphanumeric =
        scalar.isASCII && scalar.properties.isAlphabetic
        || ("0"..."9").contains(scalar)
      switch name {
      case "rfc1034identifier":
        result.unicodeScalars.append(
          isASCIIAlphanumeric || scalar == "-" || scalar == "." ? scalar : "-")
      case "identifier":
        result.unicodeScalars.append(isASCIIAlphanumeric || scalar == "_" ? scalar : "_")
      default:
        let keeps =
          isASCIIAlphanumeric || scalar == "_"
          || (!scalar.isASCII && scalar.properties.isAlphabetic)
        result.unicodeScalars.append(keeps ? scalar : "_")
      }
    }
    if name != "rfc1034identifier", let first = result.unicodeScalars.first,
      ("0"..."9").contains(first)
    {
      result = "_" + result
    }
    return result
  }
}

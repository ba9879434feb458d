import BundleKitFileSystem
import Foundation

extension VersionBump {
  /// A build-number scheme by the name users give it (`increment`, `timestamp`, `git-count`,
  /// `env:VAR`): read once, where the command line or a configuration names it.
  public enum SchemeName: Sendable, Hashable, CustomStringConvertible {
    /// `increment`: the last component + 1, per file.
    case increment
    /// `timestamp`: the UTC time as `YYMMDDHHMM`.
    case timestamp
    /// `git-count`: the commits on HEAD.
    case gitCount
    /// `env:VAR`: a CI build number.
    case environment(String)

    /// The names, for help texts.
    public static let help = "increment, timestamp, git-count or env:VAR"

    /// The scheme `text` names, or nil.
    public init?(_ text: String) {
      switch text {
      case "increment": self = .increment
      case "timestamp": self = .timestamp
      case "git-count": self = .gitCount
      default:
        guard text.hasPrefix("env:"), text.count > 4 else { return nil }
        self = .environment(String(text.dropFirst(4)))
      }
    }

    /// The name as users write it.
    public var description: String {
      switch self {
      case .increment: "increment"
      case .timestamp: "timestamp"
      case .gitCount: "git-count"
      case .environment(let variable): "env:\(variable)"
      }
    }

    /// The scheme to bump with; a timestamp is `SOURCE_DATE_EPOCH`'s time when set (a
    /// reproducible build), otherwise now.
    public var scheme: BuildScheme {
      switch self {
      case .increment: .increment
      case .timestamp:
        .timestamp(
          BuildEnvironment.sourceDateEpoch().map { Date(timeIntervalSince1970: TimeInterval($0)) }
            ?? Date())
      case .gitCount: .gitCount
      case .environment(let variable): .environment(variable)
      }
    }
  }
}

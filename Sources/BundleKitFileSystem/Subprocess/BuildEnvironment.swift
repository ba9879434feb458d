import Foundation

/// What the build's environment says about reproducibility.
public enum BuildEnvironment {
  /// `SOURCE_DATE_EPOCH` (reproducible-builds.org): the time to stamp on what is built, in
  /// seconds since 1970, or nil when it is not set or not a whole number.
  public static func sourceDateEpoch(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Int64? {
    environment["SOURCE_DATE_EPOCH"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
  }
}

import BundleKitArchiving

/// How `bundlekit` lifts what the libraries refuse: the flag for each refusal rule, added as
/// a note below the error (the libraries themselves name no flag).
enum RefusalHints {
  /// The note for each rule name.
  static let all: [String: String] = [
    ExtractionLimits.Limit.totalSize.rawValue: "raise the limit with --max-size BYTES",
    ExtractionLimits.Limit.ratio.rawValue: "raise the limit with --max-ratio RATIO",
    ExtractionLimits.Limit.entries.rawValue: "raise the limit with --max-entries COUNT",
    "write-outside": "give --allow-outside to write there",
    "claim-jump": "give --allow-jump to claim past it",
    "read-outside": "give --allow-outside to read settings there, if you trust this checkout",
    "lower-value": "give --allow-lower to lower it on purpose",
    "template-variable": "pass --set NAME=VALUE",
    "replace-output": "give --force to replace it",
  ]
}

import Foundation

/// Generated text compared whole with a file kept beside the tests (`Fixtures/Expected/`),
/// so any change to generated code shows up in review as a diff of that file.
///
/// Name them `NAME.swift.expected` so formatters leave them as generated. With
/// `BUNDLEKIT_UPDATE_EXPECTED=1` the files are written instead (and the comparison
/// reports that it did), for a change made on purpose.
public enum ExpectedOutput {
  /// Nil when `actual` equals the expected file's text; otherwise where they first differ.
  ///
  /// - Parameters:
  ///   - actual: The generated text.
  ///   - name: The file's name in `Fixtures/Expected/` beside the calling test file.
  ///   - testFile: The calling test file (its folder holds `Fixtures/`).
  public static func difference(
    _ actual: String, expected name: String, testFile: String = #filePath
  ) -> String? {
    let folder = URL(fileURLWithPath: testFile).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/Expected")
    let path = folder.appendingPathComponent(name).path
    if ProcessInfo.processInfo.environment["BUNDLEKIT_UPDATE_EXPECTED"] == "1" {
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try? actual.write(toFile: path, atomically: true, encoding: .utf8)
      return "wrote \(path) (BUNDLEKIT_UPDATE_EXPECTED=1): review it and run again without"
    }
    guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
      return "\(path) is missing: run with BUNDLEKIT_UPDATE_EXPECTED=1 to write it"
    }
    guard actual != expected else { return nil }
    let got = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(got.count, want.count) {
      let line = index < got.count ? String(got[index]) : "<end>"
      let wanted = index < want.count ? String(want[index]) : "<end>"
      if line != wanted {
        return "\(path):\(index + 1): expected\n  \(wanted)\ngot\n  \(line)"
      }
    }
    return "\(path): the texts differ in their line endings"
  }
}

/// Unified diffs of the small, in-place edits versioning makes, for `--dry-run`.
public enum UnifiedDiff {
  /// The diff of `old` and `new` as `diff -u` prints it, with three lines of context.
  public static func make(old: [UInt8], new: [UInt8], path: String, context: Int = 3) -> String {
    let before = lines(old)
    let after = lines(new)
    var output = "--- a/\(path)\n+++ b/\(path)\n"
    guard before.count == after.count else {
      // Edits never add lines; if they did, show the whole file.
      output += "@@ -1,\(before.count) +1,\(after.count) @@\n"
      output += before.map { "-" + $0 + "\n" }.joined() + after.map { "+" + $0 + "\n" }.joined()
      return output
    }
    let changed = before.indices.filter { before[$0] != after[$0] }
    var index = 0
    while index < changed.count {
      // Changes closer than twice the context share a hunk.
      var last = index
      while last + 1 < changed.count, changed[last + 1] - changed[last] <= 2 * context { last += 1 }
      let start = max(0, changed[index] - context)
      let end = min(before.count, changed[last] + context + 1)
      output += "@@ -\(start + 1),\(end - start) +\(start + 1),\(end - start) @@\n"
      for line in start..<end {
        if before[line] == after[line] {
          output += " \(before[line])\n"
        } else {
          output += "-\(before[line])\n+\(after[line])\n"
        }
      }
      index = last + 1
    }
    return output
  }

  static func lines(_ bytes: [UInt8]) -> [String] {
    var result = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    if result.last == "" { result.removeLast() }
    return result
  }
}

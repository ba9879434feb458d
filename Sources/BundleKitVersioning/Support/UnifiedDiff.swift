/// Unified diffs of the small edits versioning makes, for `--dry-run`: values replaced in
/// place, and the odd line added.
public enum UnifiedDiff {
  /// The diff of `old` and `new` as `diff -u` prints it, with three lines of context.
  public static func make(old: [UInt8], new: [UInt8], path: String, context: Int = 3) -> String {
    let before = lines(old)
    let after = lines(new)
    var output = "--- a/\(path)\n+++ b/\(path)\n"
    guard before.count == after.count else {
      // Lines added (a key a bump writes into a spec): one hunk between the lines the two
      // have in common at the start and at the end.
      var prefix = 0
      while prefix < min(before.count, after.count), before[prefix] == after[prefix] { prefix += 1 }
      var suffix = 0
      while suffix < min(before.count, after.count) - prefix,
        before[before.count - 1 - suffix] == after[after.count - 1 - suffix]
      {
        suffix += 1
      }
      let start = max(0, prefix - context)
      let trailing = min(suffix, context)
      let oldEnd = before.count - suffix + trailing
      let newEnd = after.count - suffix + trailing
      output += "@@ -\(start + 1),\(oldEnd - start) +\(start + 1),\(newEnd - start) @@\n"
      output += before[start..<prefix].map { " " + $0 + "\n" }.joined()
      output += before[prefix..<(before.count - suffix)].map { "-" + $0 + "\n" }.joined()
      output += after[prefix..<(after.count - suffix)].map { "+" + $0 + "\n" }.joined()
      output += before[(before.count - suffix)..<oldEnd].map { " " + $0 + "\n" }.joined()
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

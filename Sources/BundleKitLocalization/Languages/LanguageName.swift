// Shared: Sources/BundleKitStringsTable/Layout/LanguageName.swift and
// Plugins/PluginsShared/Plain/LanguageName.swift are links to this file, so the runtime, the
// tool and the plugins agree on what names a language. Plain Swift, no imports, internal in
// each module that compiles it.

/// What may name a language in a table, a catalog, an XLIFF file or a `<lang>.lproj` folder.
enum LanguageName {
  /// Whether `name` is a language: a BCP 47 tag, or Apple's older spellings (`pt_BR`,
  /// `English`, `Base`): subtags of 1 to 8 ASCII letters and digits joined by `-` or `_`, the
  /// first of letters only, 64 bytes at most. Anything else (`-`, `_`, `../x`, `en/..`, a
  /// space, an empty name) names no language, and so is never made into a path.
  static func isValid(_ name: String) -> Bool {
    var count = 0
    var length = 0
    var first = true
    for byte in name.utf8 {
      count += 1
      guard count <= 64 else { return false }
      switch byte {
      case UInt8(ascii: "-"), UInt8(ascii: "_"):
        guard length > 0 else { return false }
        length = 0
        first = false
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
        length += 1
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard !first else { return false }
        length += 1
      default:
        return false
      }
      guard length <= 8 else { return false }
    }
    return length > 0
  }
}

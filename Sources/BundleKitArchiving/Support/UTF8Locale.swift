#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A UTF-8 character set for the calling thread while libarchive works.
///
/// libarchive converts every name between UTF-8 and the locale's character set. A program
/// that never calls `setlocale` runs in the C locale (ASCII) whatever `LANG` says, and
/// there a name such as `données/a.txt` has no form at all: libarchive then passes a null
/// name on and crashes (pax, zip, 7z writers), or refuses the entry. BundleKit's names are
/// UTF-8, so the thread's locale is switched (`uselocale`, this thread only) to a UTF-8 one.
struct UTF8Locale {
  private let previous: locale_t?

  /// The first UTF-8 locale this system has.
  private nonisolated(unsafe) static let utf8: locale_t? = {
    for name in ["C.UTF-8", "C.utf8", "en_US.UTF-8", "UTF-8"] {
      if let locale = newlocale(LC_CTYPE_MASK, name, nil) { return locale }
    }
    return nil
  }()

  /// Switches the calling thread to the UTF-8 locale until `leave()`.
  static func enter() -> UTF8Locale {
    guard let utf8 else { return UTF8Locale(previous: nil) }
    return UTF8Locale(previous: uselocale(utf8))
  }

  /// Restores the thread's previous locale.
  func leave() {
    if let previous { uselocale(previous) }
  }
}

import Foundation
import Localization

// Prints, for each language, a .strings value through Foundation's own Bundle API, a String
// Catalog value, and plurals from a .stringsdict through BundleKit's runtime (Foundation's
// Bundle.localizedString crashes on .stringsdict keys on Linux).
let strings = LocalizedStrings(bundle: .module)
for language in ["en", "fr", "de"] {
  guard let path = Bundle.module.path(forResource: language, ofType: "lproj"),
    let bundle = Bundle(path: path)
  else {
    print("\(language): no \(language).lproj in the bundle")
    continue
  }
  let greeting = bundle.localizedString(forKey: "greeting", value: "?", table: nil)
  let menu = bundle.localizedString(forKey: "Settings", value: "?", table: "Menu")
  let files = [0, 1, 2, 5].map {
    strings.localized("%d files", language: language, arguments: [$0])
  }
  let compiled =
    (try? Data(contentsOf: URL(fileURLWithPath: "\(path)/Localizable.strings")))?
    .starts(with: Array("bplist00".utf8)) ?? false
  print(
    "\(language): \(greeting) | \(menu) | \(files.joined(separator: ", ")) | compiled: \(compiled)")
}

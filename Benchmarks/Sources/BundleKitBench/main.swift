// bundlekit-bench: runs BundleKit and its peers side by side and prints markdown tables.
// Usage: swift run -c release --package-path Benchmarks bundlekit-bench [SUITE...]   (suites: plist strings runtime bump archive morse lookup localize)

import Foundation

let suites: [String: () throws -> Void] = [
  "plist": PlistSuite.run,
  "strings": StringsSuite.run,
  "runtime": RuntimeSuite.run,
  "bump": BumpSuite.run,
  "archive": ArchiveSuite.run,
  "morse": MorseSuite.run,
  "lookup": LookupSuite.run,
  "localize": LocalizeSuite.run,
]

let requested = Array(CommandLine.arguments.dropFirst())
let names = requested.isEmpty ? suites.keys.sorted() : requested
#if DEBUG
  print(
    "warning: this is a debug build; measure with `swift run -c release --package-path Benchmarks bundlekit-bench`\n"
  )
#endif
print(
  "Machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB; \(Date())\n"
)
for name in names {
  guard let suite = suites[name] else {
    print("unknown suite '\(name)'; known: \(suites.keys.sorted().joined(separator: " "))")
    exit(2)
  }
  try suite()
}

// swift-tools-version: 6.1
import PackageDescription

// Side-by-side benchmarks against the peers (release builds only), in a package of their
// own so neither BundleKit's users nor its tests build them:
//   swift build -c release --product bundlekit          # at the top: the whole-command rows
//   swift run -c release --package-path Benchmarks bundlekit-bench [SUITE...]
let package = Package(
  name: "BundleKitBenchmarks",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "bundlekit-bench", targets: ["BundleKitBench"])
  ],
  dependencies: [
    .package(name: "BundleKit", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "BundleKitBench",
      dependencies: [
        .product(name: "FileSystem", package: "BundleKit"),
        .product(name: "PropertyListXML", package: "BundleKit"),
        .product(name: "StringsTable", package: "BundleKit"),
        .product(name: "Localization", package: "BundleKit"),
        .product(name: "Morse", package: "BundleKit"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)

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
        .product(name: "_BundleKitFileSystem", package: "BundleKit"),
        .product(name: "BundleKitPropertyList", package: "BundleKit"),
        .product(name: "BundleKitStringsTable", package: "BundleKit"),
        .product(name: "BundleKitLocalization", package: "BundleKit"),
        .product(name: "BundleKitMorse", package: "BundleKit"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.0
// BundleKit's demo: two targets with Info.plists, tables in four languages (.strings,
// .stringsdict plurals, a String Catalog), a static .bundle for the scanner to flag, and the
// CompileStrings, GenerateStrings, BuildInfo and EmbedResources plugins at work.
//
//   swift run --package-path Examples/DemoApp DemoApp        # build info and translations
//   bundlekit release Examples/DemoApp                       # the whole release chain
import PackageDescription

let package = Package(
  name: "DemoApp",
  defaultLocalization: "en",
  dependencies: [
    .package(name: "BundleKit", path: "../..")
  ],
  targets: [
    .target(
      name: "DemoKit",
      dependencies: [.product(name: "BundleKitLocalization", package: "BundleKit")],
      exclude: ["Info.plist"],
      resources: [.process("Resources"), .copy("Legacy.bundle")],
      plugins: [.plugin(name: "CompileStrings", package: "BundleKit")]
    ),
    .executableTarget(
      name: "DemoApp",
      dependencies: ["DemoKit", .product(name: "BundleKitLocalization", package: "BundleKit")],
      exclude: ["Info.plist", "Embedded"],
      resources: [.process("Resources")],
      plugins: [
        .plugin(name: "CompileStrings", package: "BundleKit"),
        .plugin(name: "GenerateStrings", package: "BundleKit"),
        .plugin(name: "BuildInfo", package: "BundleKit"),
        .plugin(name: "EmbedResources", package: "BundleKit"),
      ]
    ),
  ]
)

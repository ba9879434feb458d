// swift-tools-version: 6.1
import PackageDescription

// Finding localizable strings in Swift sources as Xcode's extraction does, with swift-syntax,
// in a package of its own: a user who attaches BundleKit's plugins resolves and builds none
// of swift-syntax. `bundlekit strings extract ...` runs the `bundlekit-localize` built here,
// found beside `bundlekit` or on PATH.
let package = Package(
  name: "BundleKitLocalize",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "bundlekit-localize", targets: ["bundlekit-localize"]),
    .library(name: "BundleKitStringsExtraction", targets: ["BundleKitStringsExtraction"]),
    .plugin(name: "SyncStrings", targets: ["SyncStrings"]),
  ],
  dependencies: [
    .package(name: "BundleKit", path: "../.."),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"),
  ],
  targets: [
    .target(
      name: "BundleKitStringsExtraction",
      dependencies: [
        .product(name: "_BundleKitDiagnostics", package: "BundleKit"),
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
        .product(name: "SwiftOperators", package: "swift-syntax"),
      ]
    ),
    .executableTarget(
      name: "bundlekit-localize",
      dependencies: [
        "BundleKitStringsExtraction",
        .product(name: "_BundleKitCommandLineTool", package: "BundleKit"),
        .product(name: "_BundleKitDiagnostics", package: "BundleKit"),
        .product(name: "_BundleKitFileSystem", package: "BundleKit"),
        .product(name: "BundleKitPropertyListCore", package: "BundleKit"),
        .product(name: "BundleKitStringsTable", package: "BundleKit"),
        .product(name: "BundleKitVersioning", package: "BundleKit"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/BundleKitLocalizeCLI"
    ),
    .plugin(
      name: "SyncStrings",
      capability: .command(
        intent: .custom(
          verb: "sync-strings",
          description:
            "Bring each target's String Catalogs up to date with its Swift sources, as Xcode does."
        ),
        permissions: [
          .writeToPackageDirectory(
            reason: "Adds new keys to the targets' String Catalogs and marks removed ones stale.")
        ]
      ),
      dependencies: ["bundlekit-localize"]
    ),
    .testTarget(
      name: "StringsExtractionTests",
      dependencies: [
        "BundleKitStringsExtraction", "bundlekit-localize",
        .product(name: "_BundleKitTestSupport", package: "BundleKit"),
      ],
      exclude: ["Fixtures"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// Scripts/test.sh builds with `--disable-index-store` (indexing every module as it compiles
// costs a cold debug build 4 to 7 %) and names the store here, for the test targets alone:
// SwiftPM's test discovery on Linux reads their index, and no other module's.
if let store = Context.environment["BUNDLEKIT_TEST_INDEX_STORE"], !store.isEmpty {
  for target in package.targets where target.type == .test {
    target.swiftSettings =
      (target.swiftSettings ?? []) + [.unsafeFlags(["-index-store-path", store])]
  }
}

// swift-tools-version: 6.1
import PackageDescription

// The translation memory (SQLite through GRDB) and its LibreTranslate-compatible server
// (Hummingbird), in a package of their own: a user who attaches BundleKit's plugins resolves
// and builds none of this. `bundlekit translate ...` runs the `bundlekit-translate` built here,
// found beside `bundlekit` or on PATH.
let package = Package(
  name: "BundleKitTranslate",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "bundlekit-translate", targets: ["bundlekit-translate"]),
    .library(name: "BundleKitTranslation", targets: ["BundleKitTranslation"]),
    .library(name: "BundleKitTranslationServer", targets: ["BundleKitTranslationServer"]),
    .library(name: "BundleKitTranslationPostgres", targets: ["BundleKitTranslationPostgres"]),
  ],
  dependencies: [
    .package(name: "BundleKit", path: "../.."),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.26.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
  ],
  targets: [
    .target(
      name: "BundleKitTranslation",
      dependencies: [
        .product(name: "_BundleKitDiagnostics", package: "BundleKit"),
        .product(name: "_BundleKitFileSystem", package: "BundleKit"),
        .product(name: "BundleKitPropertyList", package: "BundleKit"),
        .product(name: "BundleKitPropertyListCore", package: "BundleKit"),
        .product(name: "BundleKitStringsTable", package: "BundleKit"),
        .product(name: "BundleKitLocalization", package: "BundleKit"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    .target(
      name: "BundleKitTranslationPostgres",
      dependencies: [
        "BundleKitTranslation",
        .product(name: "_BundleKitDiagnostics", package: "BundleKit"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]
    ),
    .target(
      name: "BundleKitTranslationServer",
      dependencies: [
        "BundleKitTranslation",
        .product(name: "_BundleKitFileSystem", package: "BundleKit"),
        .product(name: "BundleKitPropertyList", package: "BundleKit"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "Atomics", package: "swift-atomics"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
      ]
    ),
    .executableTarget(
      name: "bundlekit-translate",
      dependencies: [
        "BundleKitTranslation",
        "BundleKitTranslationServer",
        "BundleKitTranslationPostgres",
        .product(name: "_BundleKitCommandLineTool", package: "BundleKit"),
        .product(name: "_BundleKitDiagnostics", package: "BundleKit"),
        .product(name: "_BundleKitFileSystem", package: "BundleKit"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/BundleKitTranslateCLI"
    ),
    .testTarget(
      name: "TranslationTests",
      dependencies: [
        "BundleKitTranslation", "BundleKitTranslationServer", "BundleKitTranslationPostgres",
        "bundlekit-translate",
        .product(name: "_BundleKitFileSystem", package: "BundleKit"),
        .product(name: "BundleKitPropertyList", package: "BundleKit"),
        .product(name: "BundleKitStringsTable", package: "BundleKit"),
        .product(name: "_BundleKitTestSupport", package: "BundleKit"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]
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

// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for every decoder that reads input from strangers. Not part of the
// build: Scripts/fuzz/run.sh builds them with `-sanitize=fuzzer,address` (a debug build, so
// the internal readers are reachable through @testable imports) and runs each on its seed
// corpus. Inputs that crashed are kept in Regressions/<target>/ and run as ordinary tests
// by FuzzRegressionTests in each package (no sanitizer build in CI).
let package = Package(
  name: "BundleKitFuzz",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "BundleKit", path: "../.."),
    .package(name: "BundleKitTranslate", path: "../../Packages/BundleKitTranslate"),
    .package(name: "BundleKitLocalize", path: "../../Packages/BundleKitLocalize"),
  ],
  targets: [
    .target(
      name: "FuzzSupport",
      dependencies: [
        .product(name: "BundleKitPropertyList", package: "BundleKit"),
        .product(name: "BundleKitStringsTable", package: "BundleKit"),
        .product(name: "BundleKitVersioning", package: "BundleKit"),
        .product(name: "_BundleKitFileSystem", package: "BundleKit"),
        .product(name: "BundleKitTranslation", package: "BundleKitTranslate"),
        .product(name: "BundleKitStringsExtraction", package: "BundleKitLocalize"),
      ]
    ),
    .executableTarget(name: "FuzzBinaryPlist", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzXMLPlist", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzStrings", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzStringsdict", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzCatalog", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzPBXProj", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzXcconfig", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzYAMLSpec", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzTuistManifest", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzXLIFF", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzTMX", dependencies: ["FuzzSupport"]),
    .executableTarget(name: "FuzzSwiftExtraction", dependencies: ["FuzzSupport"]),
  ],
  swiftLanguageModes: [.v6]
)

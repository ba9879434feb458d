// swift-tools-version: 6.0
// A package that uses BundleKit's CompileStrings plugin, built by BundleKit's tests (and by
// hand: `swift build --package-path Tests/Fixtures/PluginPackage && swift run ...`).
import PackageDescription

let package = Package(
  name: "PluginFixture",
  defaultLocalization: "en",
  dependencies: [
    .package(name: "BundleKit", path: "../../..")
  ],
  targets: [
    .executableTarget(
      name: "Greeter",
      dependencies: [.product(name: "Localization", package: "BundleKit")],
      exclude: ["Info.plist", "Embedded"],
      resources: [.process("Resources")],
      plugins: [
        .plugin(name: "CompileStrings", package: "BundleKit"),
        .plugin(name: "GenerateStrings", package: "BundleKit"),
        .plugin(name: "BuildInfo", package: "BundleKit"),
        .plugin(name: "EmbedResources", package: "BundleKit"),
      ]
    )
  ]
)

// swift-tools-version: 6.1
import Foundation
import PackageDescription

// The plugins run `bundlekit`. A prebuilt one (an artifact bundle from
// Scripts/make-artifactbundle.sh, in Artifacts/ or named by BUNDLEKIT_TOOL_ARTIFACT) saves
// compiling it here; without one, the tool is built from source. Users get the prebuilt tool
// from BundleKitPlugins, the package a release generates (Scripts/make-plugin-package.py)
// whose `.binaryTarget(url:checksum:)` names the published zip.
let prebuiltTool: String? = {
  if let path = Context.environment["BUNDLEKIT_TOOL_ARTIFACT"], !path.isEmpty { return path }
  let local = "Artifacts/bundlekit.artifactbundle"
  let exists = FileManager.default.fileExists(
    atPath: Context.packageDirectory + "/" + local + "/info.json")
  return exists ? local : nil
}()
let pluginTool: Target.Dependency = prebuiltTool == nil ? "bundlekit" : "BundleKitTool"

let package = Package(
  name: "BundleKit",
  // The runtime (Localization, PropertyList, Morse) runs on every Apple platform; the tool and
  // the plugins on macOS and Linux.
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .executable(name: "bundlekit", targets: ["bundlekit"]),
    .executable(name: "bundlekit-morse", targets: ["bundlekit-morse"]),
    // The libraries an app or a tool imports: the runtime, property lists, strings tables,
    // versions, archives, and the Morse decoder.
    .library(name: "BundleKitLocalization", targets: ["BundleKitLocalization"]),
    .library(name: "BundleKitPropertyListCore", targets: ["BundleKitPropertyListCore"]),
    .library(name: "BundleKitPropertyList", targets: ["BundleKitPropertyList"]),
    .library(name: "BundleKitStringsTable", targets: ["BundleKitStringsTable"]),
    .library(name: "BundleKitVersioning", targets: ["BundleKitVersioning"]),
    .library(name: "BundleKitArchiving", targets: ["BundleKitArchiving"]),
    .library(name: "BundleKitMorse", targets: ["BundleKitMorse"]),
    // For BundleKit's own helper packages (translate, localize) and benchmarks: no promise
    // of a stable API, hence the underscore.
    .library(name: "_BundleKitCommandLineTool", targets: ["_BundleKitCommandLineTool"]),
    .library(name: "_BundleKitDiagnostics", targets: ["BundleKitDiagnostics"]),
    .library(name: "_BundleKitFileSystem", targets: ["BundleKitFileSystem"]),
    .library(name: "_BundleKitTestSupport", targets: ["BundleKitTestSupport"]),
    .plugin(name: "CompileStrings", targets: ["CompileStrings"]),
    .plugin(name: "GenerateStrings", targets: ["GenerateStrings"]),
    .plugin(name: "BuildInfo", targets: ["BuildInfo"]),
    .plugin(name: "BumpBuildNumber", targets: ["BumpBuildNumber"]),
    .plugin(name: "BumpVersion", targets: ["BumpVersion"]),
    .plugin(name: "PackageResources", targets: ["PackageResources"]),
    .plugin(name: "EmbedResources", targets: ["EmbedResources"]),
    .plugin(name: "ScanResources", targets: ["ScanResources"]),
    .plugin(name: "Release", targets: ["Release"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
    // XcodeGen reads its specs with Yams (libyaml): so does BundleKit, anchors and merge keys
    // included.
    .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
  ],
  targets: [
    // System libraries. libxml2 and libarchive are loaded when first used, not linked (their
    // headers say why); zlib is linked.
    .systemLibrary(name: "CBundleKitLibXML2"),
    .systemLibrary(
      name: "CBundleKitArchive",
      providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
    ),
    // glibc's calls that choose the core a thread starts on (Linux; nothing to link).
    .systemLibrary(name: "CBundleKitThreads"),

    // Libraries.

    // What every error and finding is made of (file, line, column, severity, message) and
    // the streams they are printed to: one model for every module and both tools.
    .target(name: "BundleKitDiagnostics"),

    // The one `main` of the executables (`bundlekit`, `bundlekit-translate`): exit codes and
    // the printing of errors.
    .target(
      name: "_BundleKitCommandLineTool",
      dependencies: [
        "BundleKitDiagnostics", "BundleKitPropertyListCore", "BundleKitStringsTable",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // Files and folders: atomic and batch writes that survive a crash, walks, locks, threads,
    // subprocesses.
    .target(
      name: "BundleKitFileSystem",
      dependencies: [
        "BundleKitDiagnostics",
        .target(name: "CBundleKitThreads", condition: .when(platforms: [.linux])),
      ]),

    // The property-list codec: the value model; binary, JSON and OpenStep read and written,
    // XML written. Pure Swift: what the runtime links.
    .target(
      name: "BundleKitPropertyListCore",
      dependencies: [
        "BundleKitDiagnostics", .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),

    // XML property lists read with libxml2, and documents of any format read from and
    // written to files.
    .target(
      name: "BundleKitPropertyList",
      dependencies: [
        "BundleKitPropertyListCore", "BundleKitFileSystem", "CBundleKitLibXML2",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),

    // Swift source written for users' targets: identifiers and literals, build info, embedded
    // files. Pure Swift, so every generator escapes names the same way.
    .target(name: "BundleKitCodeGeneration"),

    .target(
      name: "BundleKitStringsTable",
      dependencies: [
        "BundleKitCodeGeneration",
        "BundleKitDiagnostics",
        "BundleKitFileSystem",
        "BundleKitPropertyListCore",
        "BundleKitPropertyList",
        "BundleKitLocalization",
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "Mustache", package: "swift-mustache"),
      ]
    ),

    .target(
      name: "BundleKitVersioning",
      dependencies: [
        "BundleKitDiagnostics", "BundleKitFileSystem", "BundleKitPropertyListCore",
        "BundleKitPropertyList", .product(name: "Yams", package: "Yams"),
      ]
    ),

    .target(
      name: "BundleKitArchiving",
      dependencies: ["CBundleKitArchive", "BundleKitDiagnostics", "BundleKitFileSystem"]
    ),

    .target(
      name: "BundleKitResources",
      dependencies: [
        "BundleKitDiagnostics", "BundleKitFileSystem", "BundleKitPropertyList",
        "BundleKitStringsTable", "BundleKitVersioning",
      ]
    ),

    .target(name: "BundleKitMorse", dependencies: ["BundleKitDiagnostics"]),

    // The release chain (lint, compile, archive, bump) as one all-or-nothing run, for the
    // `release` command and plugin.
    .target(
      name: "BundleKitReleasing",
      dependencies: [
        "BundleKitArchiving", "BundleKitDiagnostics", "BundleKitFileSystem",
        "BundleKitPropertyListCore", "BundleKitResources", "BundleKitStringsTable",
        "BundleKitVersioning",
      ]
    ),

    // The templates the tool ships, compiled into it (Templates/ShippedTemplates.swift is
    // generated from the files beside it), so a copied or installed binary has them.
    .target(
      name: "BundleKitTemplates",
      path: "Templates",
      exclude: ["strings", "bundle"]
    ),

    // The runtime apps link: small, Foundation and the pure-Swift PropertyList codec only (no
    // libxml2, libarchive or Process): iOS, tvOS, watchOS and visionOS too.
    .target(
      name: "BundleKitLocalization",
      dependencies: ["BundleKitPropertyListCore"]
    ),

    // The `bundlekit` tool.
    // The target is named after the tool, so plugins find it as `bundlekit`.
    .executableTarget(
      name: "bundlekit",
      dependencies: [
        "BundleKitCodeGeneration",
        "_BundleKitCommandLineTool",
        "BundleKitDiagnostics",
        "BundleKitFileSystem",
        "BundleKitPropertyList",
        "BundleKitStringsTable",
        "BundleKitLocalization",
        "BundleKitVersioning",
        "BundleKitArchiving",
        "BundleKitResources",
        "BundleKitReleasing",
        "BundleKitTemplates",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/BundleKitCLI"
    ),

    // `bundlekit morse`'s helper: an executable of its own, so `bundlekit`, which every plugin
    // user builds, carries no Morse.
    .executableTarget(
      name: "bundlekit-morse",
      dependencies: [
        "_BundleKitCommandLineTool", "BundleKitDiagnostics", "BundleKitFileSystem",
        "BundleKitMorse",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/BundleKitMorseCLI"
    ),

    // Plugins: thin, they work out paths and run `bundlekit`.
    .plugin(
      name: "CompileStrings",
      capability: .buildTool(),
      dependencies: [pluginTool]
    ),
    .plugin(
      name: "GenerateStrings",
      capability: .buildTool(),
      dependencies: [pluginTool]
    ),
    .plugin(
      name: "BuildInfo",
      capability: .buildTool(),
      dependencies: [pluginTool]
    ),
    .plugin(
      name: "BumpBuildNumber",
      capability: .command(
        intent: .custom(
          verb: "bump-build-number", description: "Raise CFBundleVersion in every Info.plist"),
        permissions: [
          .writeToPackageDirectory(reason: "Writes the new build numbers into Info.plists")
        ]
      ),
      dependencies: [pluginTool]
    ),
    .plugin(
      name: "ScanResources",
      capability: .command(
        intent: .custom(
          verb: "scan-resources", description: "Show each target's resources and what is missing")
      ),
      dependencies: [pluginTool]
    ),
    .plugin(
      name: "EmbedResources",
      capability: .buildTool(),
      dependencies: [pluginTool]
    ),
    .plugin(
      name: "PackageResources",
      capability: .command(
        intent: .custom(
          verb: "package-resources",
          description: "Archive each target's resources, strings compiled"),
        permissions: [.writeToPackageDirectory(reason: "Writes the archives under dist/")]
      ),
      dependencies: [pluginTool]
    ),
    .plugin(
      name: "BumpVersion",
      capability: .command(
        intent: .custom(
          verb: "bump-version", description: "Raise CFBundleShortVersionString in every Info.plist"),
        permissions: [.writeToPackageDirectory(reason: "Writes the new versions into Info.plists")]
      ),
      dependencies: [pluginTool]
    ),

    .plugin(
      name: "Release",
      capability: .command(
        intent: .custom(
          verb: "release",
          description: "Lint, compile, bump and archive the package's resources in one go"),
        permissions: [
          .writeToPackageDirectory(reason: "Bumps Info.plists and writes the archives under dist/")
        ]
      ),
      dependencies: [pluginTool]
    ),

    .target(
      name: "BundleKitTestSupport",
      dependencies: ["BundleKitFileSystem", "BundleKitPropertyList"],
      path: "Tests/Support"
    ),
    .testTarget(
      name: "CodeGenerationTests",
      dependencies: ["BundleKitCodeGeneration", "BundleKitTemplates", "BundleKitTestSupport"],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "DiagnosticsTests",
      dependencies: [
        "_BundleKitCommandLineTool", "BundleKitDiagnostics", "BundleKitPropertyListCore",
        "BundleKitFileSystem", "BundleKitVersioning", "BundleKitArchiving",
        "BundleKitStringsTable", "BundleKitMorse", "BundleKitTestSupport",
      ]
    ),
    .testTarget(
      name: "PropertyListTests",
      dependencies: [
        "BundleKitPropertyListCore", "BundleKitPropertyList", "BundleKitFileSystem",
        "BundleKitTestSupport",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "FileSystemTests",
      dependencies: ["BundleKitFileSystem", "BundleKitPropertyList", "BundleKitTestSupport"]
    ),
    .testTarget(
      name: "StringsTableTests",
      dependencies: [
        "BundleKitStringsTable", "BundleKitCodeGeneration", "BundleKitPropertyList",
        "BundleKitFileSystem", "BundleKitDiagnostics",
        "BundleKitLocalization", "BundleKitTestSupport",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "LocalizationTests",
      dependencies: [
        "BundleKitLocalization", "BundleKitPropertyList", "BundleKitFileSystem",
        "BundleKitTestSupport", "bundlekit",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "VersioningTests",
      dependencies: [
        "BundleKitVersioning", "BundleKitPropertyList", "BundleKitFileSystem",
        "BundleKitTestSupport", "bundlekit",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "ArchivingTests",
      dependencies: [
        "BundleKitArchiving", "BundleKitDiagnostics", "BundleKitPropertyList",
        "BundleKitFileSystem", "BundleKitTestSupport",
        "bundlekit",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "ResourcesTests",
      dependencies: [
        "BundleKitResources", "BundleKitStringsTable", "BundleKitPropertyList",
        "BundleKitFileSystem", "BundleKitTestSupport",
        "bundlekit",
      ]
    ),
    .testTarget(
      name: "MorseTests",
      dependencies: ["BundleKitMorse", "BundleKitTestSupport"]
    ),
    // The plugins' logic (Plugins/PluginsShared/Plain, linked in), tested with inputs shaped
    // as SwiftPM and Xcode give them.
    .testTarget(
      name: "PluginLogicTests",
      dependencies: ["bundlekit", "BundleKitFileSystem", "BundleKitTestSupport"]
    ),
    .testTarget(
      name: "BundleKitCLITests",
      dependencies: [
        "bundlekit", "bundlekit-morse", "BundleKitPropertyList", "BundleKitFileSystem",
        "BundleKitStringsTable", "BundleKitLocalization", "BundleKitTestSupport",
        "BundleKitDiagnostics", "_BundleKitCommandLineTool",
      ],
      exclude: ["Hostile/make-hostile.py"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

if let prebuiltTool {
  package.targets.append(.binaryTarget(name: "BundleKitTool", path: prebuiltTool))
}

// Scripts/test.sh builds with `--disable-index-store` (indexing every module as it compiles
// costs a cold debug build 4 to 7 %) and names the store here, for the test targets alone:
// SwiftPM's test discovery on Linux reads their index, and no other module's.
if let store = Context.environment["BUNDLEKIT_TEST_INDEX_STORE"], !store.isEmpty {
  for target in package.targets where target.type == .test {
    target.swiftSettings =
      (target.swiftSettings ?? []) + [.unsafeFlags(["-index-store-path", store])]
  }
}

// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "BundleKit",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "bundlekit", targets: ["bundlekit"]),
    .executable(name: "bundlekit-bench", targets: ["BundleKitBench"]),
    .executable(name: "bundlekit-translate", targets: ["bundlekit-translate"]),
    .library(name: "PropertyList", targets: ["PropertyList"]),
    .library(name: "StringsTable", targets: ["StringsTable"]),
    .library(name: "Localization", targets: ["Localization"]),
    .library(name: "Versioning", targets: ["Versioning"]),
    .library(name: "Archiving", targets: ["Archiving"]),
    .library(name: "Resources", targets: ["Resources"]),
    .library(name: "Morse", targets: ["Morse"]),
    .library(name: "Translation", targets: ["Translation"]),
    .library(name: "TranslationServer", targets: ["TranslationServer"]),
    .plugin(name: "CompileStrings", targets: ["CompileStrings"]),
    .plugin(name: "GenerateStrings", targets: ["GenerateStrings"]),
    .plugin(name: "BuildInfo", targets: ["BuildInfo"]),
    .plugin(name: "BumpBuildNumber", targets: ["BumpBuildNumber"]),
    .plugin(name: "BumpVersion", targets: ["BumpVersion"]),
    .plugin(name: "PackageResources", targets: ["PackageResources"]),
    .plugin(name: "EmbedResources", targets: ["EmbedResources"]),
    .plugin(name: "ScanResources", targets: ["ScanResources"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
    // The translation memory and its server only: `bundlekit` (the plugins' tool) links neither.
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.26.0"),
  ],
  targets: [
    // System libraries, found with pkg-config.
    .systemLibrary(
      name: "CLibXML2",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
    ),
    .systemLibrary(
      name: "CArchive",
      pkgConfig: "libarchive",
      providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
    ),

    // `syncfs` and friends that Swift's Glibc module does not show.
    .target(name: "CBundleKitSystem"),

    // Libraries.
    .target(
      name: "PropertyList",
      dependencies: [
        "CLibXML2",
        "CBundleKitSystem",
        .product(name: "OrderedCollections", package: "swift-collections"),
      ]
    ),

    .target(
      name: "StringsTable",
      dependencies: [
        "PropertyList",
        "Localization",
        .product(name: "OrderedCollections", package: "swift-collections"),
        .product(name: "Mustache", package: "swift-mustache"),
      ]
    ),

    .target(
      name: "Versioning",
      dependencies: ["PropertyList"]
    ),

    .target(
      name: "Archiving",
      dependencies: ["CArchive", "PropertyList"]
    ),

    .target(
      name: "Resources",
      dependencies: ["PropertyList", "StringsTable", "Versioning"]
    ),

    .target(name: "Morse"),

    .target(
      name: "Translation",
      dependencies: [
        "PropertyList",
        "StringsTable",
        "Localization",
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),

    .target(
      name: "TranslationServer",
      dependencies: [
        "Translation",
        "PropertyList",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
      ]
    ),

    // `bundlekit translate ...` runs this tool, found beside `bundlekit`, so the plugins' tool
    // builds without a database or a web server.
    .executableTarget(
      name: "bundlekit-translate",
      dependencies: [
        "Translation",
        "TranslationServer",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/BundleKitTranslateCLI"
    ),

    // The templates the tool ships, compiled into it (Templates/ShippedTemplates.swift is
    // generated from the files beside it), so a copied or installed binary has them.
    .target(
      name: "BundleKitTemplates",
      path: "Templates",
      exclude: ["strings", "bundle"]
    ),

    // The runtime apps link: small, Foundation and PropertyList only.
    .target(
      name: "Localization",
      dependencies: ["PropertyList"]
    ),

    // The `bundlekit` tool.
    // The target is named after the tool, so plugins find it as `bundlekit`.
    .executableTarget(
      name: "bundlekit",
      dependencies: [
        "PropertyList",
        "StringsTable",
        "Localization",
        "Versioning",
        "Archiving",
        "Resources",
        "Morse",
        "BundleKitTemplates",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/BundleKitCLI"
    ),

    // Plugins: thin, they work out paths and run `bundlekit`.
    .plugin(
      name: "CompileStrings",
      capability: .buildTool(),
      dependencies: ["bundlekit"]
    ),
    .plugin(
      name: "GenerateStrings",
      capability: .buildTool(),
      dependencies: ["bundlekit"]
    ),
    .plugin(
      name: "BuildInfo",
      capability: .buildTool(),
      dependencies: ["bundlekit"]
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
      dependencies: ["bundlekit"]
    ),
    .plugin(
      name: "ScanResources",
      capability: .command(
        intent: .custom(
          verb: "scan-resources", description: "Show each target's resources and what is missing")
      ),
      dependencies: ["bundlekit"]
    ),
    .plugin(
      name: "EmbedResources",
      capability: .buildTool(),
      dependencies: ["bundlekit"]
    ),
    .plugin(
      name: "PackageResources",
      capability: .command(
        intent: .custom(
          verb: "package-resources",
          description: "Archive each target's resources, strings compiled"),
        permissions: [.writeToPackageDirectory(reason: "Writes the archives under dist/")]
      ),
      dependencies: ["bundlekit"]
    ),
    .plugin(
      name: "BumpVersion",
      capability: .command(
        intent: .custom(
          verb: "bump-version", description: "Raise CFBundleShortVersionString in every Info.plist"),
        permissions: [.writeToPackageDirectory(reason: "Writes the new versions into Info.plists")]
      ),
      dependencies: ["bundlekit"]
    ),

    // Side-by-side benchmarks against the peers (release builds only).
    .executableTarget(
      name: "BundleKitBench",
      dependencies: ["PropertyList", "StringsTable", "Localization", "Morse"]
    ),

    .target(
      name: "BundleKitTestSupport",
      dependencies: ["PropertyList"],
      path: "Tests/Support"
    ),
    .testTarget(
      name: "PropertyListTests",
      dependencies: ["PropertyList", "BundleKitTestSupport"],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "StringsTableTests",
      dependencies: ["StringsTable", "PropertyList", "BundleKitTestSupport"]
    ),
    .testTarget(
      name: "LocalizationTests",
      dependencies: ["Localization", "PropertyList", "BundleKitTestSupport", "bundlekit"],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "VersioningTests",
      dependencies: ["Versioning", "PropertyList", "BundleKitTestSupport", "bundlekit"],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "ArchivingTests",
      dependencies: ["Archiving", "PropertyList", "BundleKitTestSupport", "bundlekit"],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "ResourcesTests",
      dependencies: [
        "Resources", "StringsTable", "PropertyList", "BundleKitTestSupport", "bundlekit",
      ]
    ),
    .testTarget(
      name: "MorseTests",
      dependencies: ["Morse", "BundleKitTestSupport"]
    ),
    .testTarget(
      name: "TranslationTests",
      dependencies: [
        "Translation", "TranslationServer", "StringsTable", "BundleKitTestSupport", "bundlekit",
        "bundlekit-translate", .product(name: "Hummingbird", package: "hummingbird"),
      ]
    ),
    .testTarget(
      name: "BundleKitCLITests",
      dependencies: ["bundlekit", "PropertyList", "BundleKitTestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

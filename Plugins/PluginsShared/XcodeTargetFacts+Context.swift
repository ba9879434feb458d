#if canImport(XcodeProjectPlugin)
  import Foundation
  import PackagePlugin
  import XcodeProjectPlugin

  extension XcodeTargetFacts {
    /// What the plugin context says of `target`.
    init(context: XcodePluginContext, target: XcodeTarget) {
      // Matched case by case, so a kind a later Xcode adds reads as "other", not an error.
      var product = Product.none
      if let kind = target.product?.kind {
        if case .application = kind {
          product = .application
        } else if case .executable = kind {
          product = .executable
        } else if case .framework = kind {
          product = .framework
        } else if case .library = kind {
          product = .library
        } else if case .other(let name) = kind {
          product = .other(name)
        } else {
          product = .other("\(kind)")
        }
      }
      self.init(
        name: target.displayName, product: product, files: target.inputFiles.map(\.url),
        projectFolder: context.xcodeProject.directoryURL,
        projectName: context.xcodeProject.displayName,
        workFolder: context.pluginWorkDirectoryURL)
    }
  }
#endif

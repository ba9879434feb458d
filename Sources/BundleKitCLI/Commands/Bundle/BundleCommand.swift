import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitResources
import BundleKitTemplates
import Foundation
import _BundleKitCommandLineTool

/// `bundlekit bundle`: resource bundles.
struct BundleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bundle",
    abstract: "Assemble resource bundles.",
    subcommands: [BundleCreate.self]
  )
}

/// `bundlekit bundle create NAME --from DIR -o OUT.bundle`.
struct BundleCreate: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "create",
    abstract: "Assemble <Name>.bundle: strings compiled, files copied, Info.plist from a template.",
    discussion: """
      The Info.plist template (Templates/bundle/Info.plist, or --template) may use $(VAR) and \
      ${VAR}: PRODUCT_NAME, PRODUCT_BUNDLE_IDENTIFIER, MARKETING_VERSION, \
      CURRENT_PROJECT_VERSION, DEVELOPMENT_LANGUAGE, any --set VAR=VALUE, and the \
      environment. The bundle is built beside OUT and moved into place when complete; it \
      loads with Foundation's Bundle(path:) on Linux and macOS.
      """
  )

  @Argument(help: "The bundle's name (CFBundleName).")
  var name: String

  @Option(help: "The folder of resources.")
  var from: String

  @Option(name: .shortAndLong, help: "The .bundle folder to write.")
  var output: String

  @Option(help: "CFBundleIdentifier (default: local.bundlekit.NAME).")
  var identifier: String?

  @Option(help: "CFBundleShortVersionString.")
  var version = "1.0"

  @Option(help: "CFBundleVersion.")
  var build = "1"

  @OptionGroup var languageOptions: LanguageOptions

  @Option(help: "An Info.plist template of your own.")
  var template: String?

  @Option(name: .customLong("set"), help: "A template variable, VAR=VALUE (repeatable).")
  var settings: [String] = []

  @Flag(
    help:
      "Replace an output that is not an earlier bundle of this identifier (a folder of other files, a file)."
  )
  var force = false

  func run(_ run: ToolRun) throws {
    var builder = ResourceBundleBuilder(name: name, identifier: identifier)
    builder.version = version
    builder.build = build
    builder.developmentLanguage = languageOptions.developmentLanguage(in: run)
    builder.force = force
    for setting in settings {
      guard let equals = setting.firstIndex(of: "=") else {
        throw ValidationError("--set takes VAR=VALUE, not '\(setting)'")
      }
      builder.variables[String(setting[..<equals])] = String(
        setting[setting.index(after: equals)...])
    }
    let templatePath = template ?? "Templates/bundle/Info.plist"
    let text: String
    if let template {
      text = String(decoding: try FileIO.read(template), as: UTF8.self)
    } else {
      text = BundleKitTemplates.text("bundle/Info.plist") ?? ""
    }
    try builder.build(from: from, to: output, template: text, templatePath: templatePath)
  }
}

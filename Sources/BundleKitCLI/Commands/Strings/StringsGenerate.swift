import ArgumentParser
import BundleKitCodeGeneration
import BundleKitDiagnostics
import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitStringsTable
import BundleKitTemplates
import Foundation
import _BundleKitCommandLineTool

/// `bundlekit strings generate PATH... -o FILE.swift [--template NAME|PATH]`.
struct StringsGenerate: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "generate",
    abstract: "Generate typed Swift accessors for strings tables.",
    discussion: """
      One accessor per key of the development language: a property for plain strings, a \
      function with typed parameters for format strings (%@ String, %d Int, %u UInt, %f \
      Double, plural variables Int), grouped by table and dotted key segments, documented \
      with the development-language value. The accessors call BundleKit's Localization \
      runtime. --template takes a shipped template name (swift6) or a .mustache file; \
      partials it includes are read from its folder.
      """
  )

  @Argument(help: "Tables, or folders to search for them.")
  var paths: [String]

  @Option(name: .shortAndLong, help: "The Swift file to write.")
  var output: String

  @Option(
    help: ArgumentHelp(
      "A shipped template name, or the path of a .mustache template (default: the --config file's, else swift6).",
      valueName: "template"))
  var template: String?

  @OptionGroup var languageOptions: LanguageOptions

  @Option(
    help: ArgumentHelp(
      "The name of the top-level enum (default: the --config file's, else L10n).",
      valueName: "enum-name"))
  var enumName: String?

  @Flag(help: "Make the accessors public (also: \"accessLevel\": \"public\" in the --config file).")
  var `public` = false

  @Option(
    help: """
      The bundle the accessors read from: module (Bundle.module, a package target), main \
      (Bundle.main), token (the bundle holding the generated code, an Xcode app or framework \
      target, which has no Bundle.module), or a Swift expression.
      """)
  var bundle = "module"

  func validate() throws {
    if let enumName, let problem = Identifier.typeNameProblem(enumName) {
      throw ValidationError(problem)
    }
  }

  func run(_ run: ToolRun) throws {
    let configuration = run.configuration
    let enumName = run.setting(self.enumName, \.enumName) ?? "L10n"
    if let problem = Identifier.typeNameProblem(enumName) {
      throw DiagnosticsError([.error(configuration.file, "enumName: \(problem)")])
    }
    let template = try AccessorTemplate.load(
      run.setting(self.template, \.template) ?? "swift6",
      shipped: BundleKitTemplates.templates("strings"))
    var generator = AccessorGenerator()
    generator.developmentLanguage = languageOptions.developmentLanguage(in: run)
    generator.enumName = enumName
    generator.accessLevel = `public` || configuration.accessLevel == "public" ? .public : .internal
    switch bundle {
    case "module": generator.bundle = "Bundle.module"
    case "main": generator.bundle = "Bundle.main"
    case "token":
      // Bundle(for:) a class of the module: the app's own bundle, or the framework's.
      generator.bundleToken = "BundleKitBundleToken"
      generator.bundle = "Bundle(for: BundleKitBundleToken.self)"
    default: generator.bundle = bundle
    }
    let locations = try TableDiscovery.tables(in: paths)
    let loaded = StringsTableSet.load(locations)
    let errors = loaded.diagnostics
    if !errors.isEmpty { throw DiagnosticsError(errors) }
    let code = try generator.generate(
      loaded, template: template.main, partials: template.partials
    ) {
      run.diagnostics.emit([$0])
    }
    try FileIO.writeIfChanged(Array(code.utf8), to: output)
  }
}

import ArgumentParser

/// `bundlekit translate fill PACKAGE_DIR --to de,fr [--provider URL]`.
struct TranslateFill: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fill",
    abstract: "Fill missing translations in a package's tables from a memory or a provider."
  )

  @Argument(help: "The package folder.")
  var package: String

  func run() async throws {
    throw ToolError.invalidValue(value: package, option: "package", reason: "fill is not built yet")
  }
}

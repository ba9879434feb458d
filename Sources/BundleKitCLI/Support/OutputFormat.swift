import ArgumentParser

/// `--format text|json` for commands whose output is data.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
  case text
  case json
}

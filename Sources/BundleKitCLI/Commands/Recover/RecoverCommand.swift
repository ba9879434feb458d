import ArgumentParser
import BundleKitDiagnostics
import BundleKitFileSystem
import _BundleKitCommandLineTool

/// `bundlekit recover`: finishes what killed BundleKit runs left in a tree.
struct RecoverCommand: ToolCommand {
  static let configuration = CommandConfiguration(
    commandName: "recover",
    abstract: "Finish the writes that killed BundleKit runs left in these folders.",
    discussion: """
      A batch write (bump, compile, extract ...) killed half-way leaves a journal that the next \
      BundleKit command writing the same folder finishes: rolled forward when it was \
      committed, back when not. Read-only commands (version, lint, scan ...) never write, and \
      warn instead. This command finishes them below PATH, nothing above it, and only \
      journals this user's own runs wrote (signed with the key in \
      ~/.local/state/bundlekit); any other journal is left and named.
      """)

  @Argument(help: "Folders to recover (default: the current folder).")
  var paths: [String] = []

  func run(_ run: ToolRun) throws {
    ScratchRecovery.recoverTree(paths.isEmpty ? ["."] : paths)
    for outcome in RecoveryScope.outcomes {
      switch outcome {
      case .replaced(let path):
        StandardStreams.printLine("replaced: \(path) (a killed run's committed write, finished)")
      case .kept(let path):
        StandardStreams.printLine(
          "kept: \(path) (changed after the killed run's batch began: its older write was dropped)")
      }
    }
  }

  /// Warns once per folder where a killed run's write was met and left unfinished.
  static func reportPending(_ diagnostics: DiagnosticsEngine) {
    let folders = RecoveryScope.pendingFolders
    guard !folders.isEmpty else { return }
    diagnostics.emit(
      folders.map { folder in
        Diagnostic(
          .warning, path: folder,
          "holds an unfinished BundleKit write journal that this run left alone (a read-only "
            + "command, a journal this user's runs did not sign, or a live run); "
            + "`bundlekit recover \(folder)` finishes this user's own")
      })
  }
}

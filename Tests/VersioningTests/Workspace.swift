import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitVersioning

/// A folder of Info.plists and projects for a test.
final class Workspace: @unchecked Sendable {
  let folder: TemporaryFolder
  var path: String { folder.path }

  init() throws { folder = try TemporaryFolder() }

  func file(_ relative: String) -> String { folder.file(relative) }

  func write(_ relative: String, _ text: String) throws {
    try FileIO.createFolders(for: file(relative))
    try FileIO.writeAtomically(Array(text.utf8), to: file(relative))
  }

  func write(_ relative: String, _ value: PropertyListValue, _ format: PropertyListFormat) throws {
    try FileIO.createFolders(for: file(relative))
    try FileIO.writeAtomically(try value.encoded(as: format), to: file(relative))
  }

  func read(_ relative: String) throws -> [UInt8] { try FileIO.read(file(relative)) }

  func value(_ relative: String, _ key: String) throws -> String? {
    try PropertyListDocument(contentsOfFile: file(relative)).value[key]?.stringValue
  }

  func bundlekit(_ arguments: String..., environment: [String: String] = [:]) throws
    -> CommandResult
  {
    let result = try Tool.run(
      BundleKitTool.path ?? "bundlekit", arguments, environment: environment, in: path)
    return CommandResult(
      status: result.status, stdout: String(decoding: result.stdout, as: UTF8.self),
      stderr: result.stderr)
  }
}

let xmlInfo = """
  <?xml version="1.0" encoding="UTF-8"?>
  <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
  <plist version="1.0">
  <dict>
      <!-- The app's identity. -->
      <key>CFBundleIdentifier</key>
      <string>com.example.app</string>
      <key>CFBundleShortVersionString</key>
      <string>1.4.9</string>
      <key>CFBundleVersion</key>   <string>41</string>
      <key>Notes</key>
      <string>a &amp; b</string>
  </dict>
  </plist>

  """

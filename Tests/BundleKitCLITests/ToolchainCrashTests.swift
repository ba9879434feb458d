import BundleKitTestSupport
import Foundation
import Testing

/// `Tool.swift` runs SwiftPM again only after the libdispatch crash it is known for, never after
/// any other failure: a crash of our own code must still fail its test.
@Suite struct ToolchainCrashTests {
  func crash(printing text: String) throws -> Tool.Result {
    try Tool.run("/bin/sh", ["-c", "printf '%s\\n' \"$1\" >&2; kill -SEGV $$", "sh", text])
  }

  @Test("the libdispatch event-loop crash is recognised; other crashes and failures are not")
  func recognised() throws {
    let known = try crash(
      printing: """
        *** Program crashed: Bad pointer dereference at 0x0000000000000002 ***
        0      0x00007fbf1af299c0 _dispatch_event_loop_drain + 1120 in libdispatch.so
        """)
    #expect(known.status == SIGSEGV)
    #expect(known.isToolchainCrash)
    let ours = try crash(
      printing: """
        *** Program crashed: Bad pointer dereference at 0x0000000000000002 ***
        0      0x000055d1c0a1b2c3 BinaryWriter.write(_:) + 42 in bundlekit
        """)
    #expect(ours.status == SIGSEGV)
    #expect(!ours.isToolchainCrash)
    let failed = try Tool.run(
      "/bin/sh", ["-c", "echo '_dispatch_event_loop_drain Program crashed' >&2; exit 1"])
    #expect(failed.status == 1)
    #expect(!failed.isToolchainCrash)
  }
}

import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitFileSystem

/// Locks on many folders (`FolderLocks`): taken on every core at once when nobody holds any,
/// else one by one in sorted order, so two runs cannot deadlock.
@Suite("Folder locks")
struct FolderLocksTests {
  /// `count` folders, named so that their sorted order is their number's.
  func folders(_ count: Int) throws -> (TemporaryFolder, [String]) {
    let folder = try TemporaryFolder()
    let names = (0..<count).map { folder.file(String(format: "F%04d", $0)) }
    for name in names {
      try FileManager.default.createDirectory(atPath: name, withIntermediateDirectories: false)
    }
    return (folder, names)
  }

  /// Whether another open file description of `folder` could lock it now (and lets it go).
  func isFree(_ folder: String) throws -> Bool {
    let other = open(folder, O_RDONLY | O_CLOEXEC)
    try #require(other >= 0)
    defer { close(other) }
    return flock(other, LOCK_EX | LOCK_NB) == 0
  }

  @Test("many folders are locked together, each held against others until released")
  func manyLocked() throws {
    let (folder, names) = try folders(FolderLocks.lockedTogether + 44)
    _ = folder
    let locks = try FolderLocks(folders: Set(names))
    for name in names { #expect(try !isFree(name), "\(name)") }
    locks.release()
    for name in names { #expect(try isFree(name), "\(name)") }
  }

  @Test("one folder of many held by another: the lock waits for it holding only those before it")
  func waitsInOrder() throws {
    let (folder, names) = try folders(FolderLocks.lockedTogether + 44)
    _ = folder
    let middle = names.count / 2
    let holder = open(names[middle], O_RDONLY | O_CLOEXEC)
    try #require(holder >= 0)
    defer { close(holder) }
    try #require(flock(holder, LOCK_EX) == 0)
    let locked = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let all = Set(names)
    Thread.detachNewThread {
      let locks = try? FolderLocks(folders: all)
      locked.signal()
      release.wait()
      locks?.release()
      locked.signal()
    }
    #expect(locked.wait(timeout: .now() + 0.5) == .timedOut)
    // Waiting at the held folder, it holds the folders before it in sorted order and none
    // after: taken together first, those were let go.
    for name in names[..<middle] { #expect(try !isFree(name), "\(name)") }
    for name in names[(middle + 1)...] { #expect(try isFree(name), "\(name)") }
    flock(holder, LOCK_UN)
    try #require(locked.wait(timeout: .now() + 10) == .success)
    for name in names { #expect(try !isFree(name), "\(name)") }
    release.signal()
    try #require(locked.wait(timeout: .now() + 10) == .success)
    for name in names { #expect(try isFree(name), "\(name)") }
  }

  @Test("a folder named twice among many is locked once, and released")
  func namedTwice() throws {
    let (folder, names) = try folders(FolderLocks.lockedTogether + 4)
    _ = folder
    let locks = try FolderLocks(folders: Set(names + [names[3] + "/."]))
    for name in names { #expect(try !isFree(name), "\(name)") }
    locks.release()
    for name in names { #expect(try isFree(name), "\(name)") }
    // Nothing is counted as held after the release: a new lock takes every folder again.
    let again = try FolderLocks(folders: Set(names))
    #expect(try !isFree(names[3]))
    again.release()
  }
}

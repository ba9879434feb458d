#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The entries of an open folder, read straight from the kernel: on Linux `getdents64` into
/// one buffer, with no `opendir` (whose `fstat` and 32 KiB `DIR` cost a system call and an
/// allocation a folder, a fifth of a walk's calls); elsewhere `fdopendir`/`readdir`.
enum FolderEntries {
  /// Calls `body` with each entry's name (its bytes, without the NUL) and type (`DT_DIR`,
  /// `DT_UNKNOWN` ...), `.` and `..` included, in the order the folder gives them. Returns
  /// false when the folder could not be read to its end (`errno` says why).
  static func forEach(
    in descriptor: Int32, _ body: (UnsafeRawBufferPointer, UInt8) -> Void
  ) -> Bool {
    forEachWithInode(in: descriptor) { name, type, _ in body(name, type) }
  }

  /// ``forEach(in:_:)``, with each entry's inode number as the folder lists it (`d_ino`):
  /// for a folder below, the inode of the folder the name stood for when listed (of the
  /// folder underneath, where one is mounted on it).
  static func forEachWithInode(
    in descriptor: Int32, _ body: (UnsafeRawBufferPointer, UInt8, UInt64) -> Void
  ) -> Bool {
    #if os(Linux)
      if SystemCalls.canReadEntries {
        return withUnsafeTemporaryAllocation(byteCount: bufferSize, alignment: 8) { buffer in
          readAll(descriptor, buffer, body)
        }
      }
    #endif
    let copy = dup(descriptor)
    guard copy >= 0, let directory = fdopendir(copy) else {
      if copy >= 0 { close(copy) }
      return false
    }
    defer { closedir(directory) }
    while let entry = readdir(directory) {
      let type = entry.pointee.d_type
      let inode = UInt64(entry.pointee.d_ino)
      withUnsafeBytes(of: entry.pointee.d_name) { raw in
        let length = raw.firstIndex(of: 0) ?? raw.count
        body(UnsafeRawBufferPointer(rebasing: raw[..<length]), type, inode)
      }
    }
    return true
  }

  #if os(Linux)
    /// Room for about 700 entries of short names a read.
    static let bufferSize = 32_768

    /// `struct linux_dirent64`: `d_ino` (8 bytes), `d_off` (8), `d_reclen` (2), `d_type`
    /// (1), then the name, NUL-terminated, within `d_reclen`.
    private static let lengthOffset = 16
    private static let typeOffset = 18
    private static let nameOffset = 19

    private static func readAll(
      _ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer,
      _ body: (UnsafeRawBufferPointer, UInt8, UInt64) -> Void
    ) -> Bool {
      while true {
        let count = SystemCalls.readEntries(descriptor, into: buffer)
        if count == 0 { return true }
        if count < 0 {
          if errno == EINTR { continue }
          return false
        }
        var offset = 0
        while offset + nameOffset <= count {
          let length = Int(
            buffer.loadUnaligned(fromByteOffset: offset + lengthOffset, as: UInt16.self))
          // A record the kernel would never write: stop rather than read past it.
          guard length > nameOffset, offset + length <= count else { return false }
          let type = buffer[offset + typeOffset]
          let inode = buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          let name = UnsafeRawBufferPointer(
            rebasing: buffer[(offset + nameOffset)..<(offset + length)])
          body(
            UnsafeRawBufferPointer(rebasing: name[..<(name.firstIndex(of: 0) ?? name.count)]), type,
            inode)
          offset += length
        }
      }
    }
  #endif
}

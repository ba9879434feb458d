import CBundleKitArchive
import Dispatch
import Foundation

/// A gzip stream compressed on every core, as pigz does it: the input is cut into blocks of
/// a fixed size, each deflated on its own with the 32 KiB before it as its dictionary and
/// ended with a sync flush, so the pieces join into one deflate stream; the CRCs are joined
/// with `crc32_combine`. The bytes depend only on the input, the level and the block size,
/// never on the number of cores or the timing: the same tree gives the same archive on
/// every run and machine (with the same zlib).
///
/// bsdtar compresses on one core; the tar stream (reading the files) is made on this thread
/// while the workers compress the blocks before it.
final class ParallelGzip: @unchecked Sendable {
  /// The block each worker deflates (pigz's default is 128 KiB).
  static let blockSize = 128 * 1024
  /// The window deflate looks back over: a block's dictionary.
  static let window = 32 * 1024

  private let descriptor: Int32
  private let level: Int32
  private var pending: [UInt8] = []
  private var dictionary: [UInt8] = []
  private var submitted = 0
  private var written = 0
  private var crc: UInt = 0
  private var length: UInt64 = 0
  // Guarded by `condition`: the blocks compressed and not yet written, by index.
  private let condition = NSCondition()
  private var done: [Int: Compressed] = [:]
  private let maxInFlight: Int
  private let queue = DispatchQueue(
    label: "bundlekit.gzip", qos: .userInitiated, attributes: .concurrent)
  /// The first error, with the system's reason.
  private(set) var failure: String?

  private struct Compressed {
    var bytes: [UInt8]
    var crc: UInt
    var count: Int
    /// zlib's complaint, when it could not deflate the block.
    var error: String? = nil
  }

  /// A stream written to `descriptor`: the gzip header now, `level` 1 to 9 (nil: 6, zlib's
  /// default), `modificationTime` in the header (0 for a reproducible archive).
  init(descriptor: Int32, level: Int?, modificationTime: UInt32) {
    self.descriptor = descriptor
    self.level = Int32(level ?? 6)
    // Two blocks in flight per core: enough to keep each busy while this thread reads.
    maxInFlight = 8 * max(1, ProcessInfo.processInfo.activeProcessorCount)
    pending.reserveCapacity(Self.blockSize)
    crc = crc32(0, nil, 0)
    // RFC 1952: magic, deflate, no flags, the time, the extra flags libarchive and gzip
    // write for the level (2: slowest, 4: fastest), Unix.
    let extra: UInt8 = self.level == 9 ? 2 : (self.level == 1 ? 4 : 0)
    let time = modificationTime
    let header: [UInt8] = [
      0x1F, 0x8B, 8, 0, UInt8(time & 0xFF), UInt8((time >> 8) & 0xFF),
      UInt8((time >> 16) & 0xFF), UInt8(time >> 24), extra, 3,
    ]
    writeOut(header)
  }

  deinit {
    // A run that stopped half-way (an unreadable file): wait for the blocks in flight and
    // write none of them, so no worker outlives the stream it writes into.
    if failure == nil { failure = "stopped" }
    drain(waiting: true)
  }

  /// Takes the next bytes of the stream.
  func append(_ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
      let taken = min(Self.blockSize - pending.count, bytes.count - offset)
      pending.append(contentsOf: bytes[offset..<(offset + taken)])
      offset += taken
      if pending.count == Self.blockSize { submit(last: false) }
    }
    drain(waiting: false)
  }

  /// Ends the stream: the last block, then the trailer (CRC-32 and length). Returns the
  /// first error met, nil when the whole stream was written.
  func finish() -> String? {
    submit(last: true)
    drain(waiting: true)
    if failure == nil {
      var trailer: [UInt8] = []
      for shift in stride(from: 0, to: 32, by: 8) { trailer.append(UInt8((crc >> shift) & 0xFF)) }
      let size = UInt32(truncatingIfNeeded: length)
      for shift in stride(from: 0, to: 32, by: 8) { trailer.append(UInt8((size >> shift) & 0xFF)) }
      writeOut(trailer)
    }
    return failure
  }

  private func submit(last: Bool) {
    let block = pending
    let window = dictionary
    let index = submitted
    submitted += 1
    // The next block's dictionary: the last 32 KiB of everything before it.
    if block.count >= Self.window {
      dictionary = Array(block[(block.count - Self.window)...])
    } else {
      dictionary = Array((dictionary + block).suffix(Self.window))
    }
    pending.removeAll(keepingCapacity: true)
    // Bounded memory: past the limit, the oldest block is waited for and written first.
    while index - written >= maxInFlight { drain(waiting: true, oneBlock: true) }
    let level = self.level
    queue.async { [self] in
      let compressed = Self.deflateBlock(block, dictionary: window, last: last, level: level)
      condition.lock()
      done[index] = compressed
      condition.signal()
      condition.unlock()
    }
  }

  /// Writes every block ready in order; with `waiting`, until all are written (with
  /// `oneBlock`, until the oldest is).
  private func drain(waiting: Bool, oneBlock: Bool = false) {
    let stop = oneBlock ? written + 1 : Int.max
    while written < submitted, written < stop {
      condition.lock()
      while waiting && done[written] == nil { condition.wait() }
      let next = done.removeValue(forKey: written)
      condition.unlock()
      guard let next else { return }
      if let error = next.error, failure == nil { failure = error }
      crc = crc32_combine(crc, next.crc, off_t(next.count))
      length += UInt64(next.count)
      writeOut(next.bytes)
      written += 1
    }
  }

  private func writeOut(_ bytes: [UInt8]) {
    guard failure == nil else { return }
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let count = Foundation.write(descriptor, base + offset, buffer.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          failure = String(cString: strerror(errno))
          return
        }
        offset += count
      }
    }
  }

  /// One block deflated on its own: raw deflate, the dictionary primed, ended with a sync
  /// flush (byte-aligned, so the next block's bytes follow it) or, for the last, finished.
  private static func deflateBlock(
    _ input: [UInt8], dictionary: [UInt8], last: Bool, level: Int32
  ) -> Compressed {
    var stream = z_stream()
    let checksum = input.withUnsafeBufferPointer { buffer in
      crc32(crc32(0, nil, 0), buffer.baseAddress, uInt(buffer.count))
    }
    // deflateInit2 is a macro: its function, with the version and size it checks.
    guard
      deflateInit2_(
        &stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
        Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else {
      return Compressed(
        bytes: [], crc: checksum, count: input.count, error: "zlib could not start deflate")
    }
    defer { deflateEnd(&stream) }
    if !dictionary.isEmpty {
      dictionary.withUnsafeBufferPointer { buffer in
        _ = deflateSetDictionary(&stream, buffer.baseAddress, uInt(buffer.count))
      }
    }
    var output = [UInt8](
      repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 64)
    var produced = 0
    var failed: String?
    input.withUnsafeBufferPointer { source in
      stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
      stream.avail_in = uInt(source.count)
      while true {
        if produced == output.count { output += [UInt8](repeating: 0, count: 64 * 1024) }
        let status = output.withUnsafeMutableBufferPointer { target -> Int32 in
          stream.next_out = target.baseAddress.map { $0 + produced }
          stream.avail_out = uInt(target.count - produced)
          let status = deflate(&stream, last ? Z_FINISH : Z_SYNC_FLUSH)
          produced = target.count - Int(stream.avail_out)
          return status
        }
        if last ? status == Z_STREAM_END : (status == Z_OK && stream.avail_out > 0) { break }
        if status != Z_OK && status != Z_BUF_ERROR {
          failed = "zlib could not deflate (\(status))"
          break
        }
      }
    }
    output.removeSubrange(produced...)
    return Compressed(bytes: output, crc: checksum, count: input.count, error: failed)
  }
}

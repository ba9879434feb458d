import FuzzSupport

/// One input, read as its format.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
  Decoders.xliff(start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
  return 0
}

/// The program's entry point (SwiftPM links `main` to it): libFuzzer's driver.
@_cdecl("FuzzXLIFF_main")
public func fuzzMain(
  _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  runFuzzer(argc, argv, fuzz)
}

import BundleKitStringsExtraction
import BundleKitTestSupport
import Testing

/// Every Swift source the fuzzing campaign kept (Scripts/fuzz/Regressions/
/// FuzzSwiftExtraction), extracted again as the fuzz target does: a crash fails the run.
struct ExtractionFuzzRegressionTests {
  @Test("Swift sources the fuzzer kept: extracted, no crash")
  func swiftSources() throws {
    for input in try FuzzRegressions.inputs("FuzzSwiftExtraction") {
      _ = SwiftStringExtractor().extract([
        ("Fuzz.swift", String(decoding: input.bytes, as: UTF8.self))
      ])
    }
  }
}

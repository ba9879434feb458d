import BundleKitPropertyList
import BundleKitTestSupport
import Foundation
import Testing

@testable import BundleKitStringsTable

/// Every input the fuzzing campaign kept for the property-list, strings-table and XLIFF
/// readers, read again as the fuzz targets read it (Scripts/fuzz/Sources/FuzzSupport/
/// Decoders.swift): a crash fails the run.
struct StringsFuzzRegressionTests {
  @Test("property-list inputs the fuzzer kept (binary and XML): read, no crash")
  func propertyLists() throws {
    for input in try FuzzRegressions.inputs("FuzzBinaryPlist")
      + FuzzRegressions.inputs("FuzzXMLPlist")
    {
      _ = try? PropertyListDocument(bytes: input.bytes)
    }
  }

  @Test(".strings, .stringsdict and catalog inputs the fuzzer kept: read and linted, no crash")
  func tables() throws {
    let linter = StringsLinter(developmentLanguage: "en")
    for input in try FuzzRegressions.inputs("FuzzStrings") {
      if let file = try? StringsFile(bytes: input.bytes, path: "Fuzz.strings") {
        _ = linter.check(file)
      }
    }
    for input in try FuzzRegressions.inputs("FuzzStringsdict") {
      _ = (try? StringsdictFile(bytes: input.bytes, path: "Fuzz.stringsdict"))?.validate(
        language: "ru")
    }
    for input in try FuzzRegressions.inputs("FuzzCatalog") {
      if let catalog = try? StringCatalog(bytes: input.bytes, path: "Fuzz.xcstrings") {
        _ = catalog.compile()
        _ = linter.check(catalog)
      }
    }
  }

  @Test("XLIFF inputs the fuzzer kept: read and written again, no crash")
  func xliff() throws {
    for input in try FuzzRegressions.inputs("FuzzXLIFF") {
      _ = (try? XLIFFDocument.read(input.bytes, path: "Fuzz.xliff"))?.xml(toolVersion: "fuzz")
    }
  }
}

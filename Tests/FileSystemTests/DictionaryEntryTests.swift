import Testing

@testable import BundleKitFileSystem

/// `Dictionary.enter(_:forKey:)`: the value found, or the one given, entered.
@Suite("Dictionary entries")
struct DictionaryEntryTests {
  @Test("a missing key is entered with the value given; a present one keeps its own")
  func enters() {
    var table = ["a": 1]
    let missing = table.enter(2, forKey: "b")
    #expect(missing.value == 2 && missing.entered)
    let present = table.enter(3, forKey: "a")
    #expect(present.value == 1 && !present.entered)
    #expect(table == ["a": 1, "b": 2])
    // An optional value: a key holding nil is present, and keeps its nil.
    let none: String? = nil
    var places: [String: String?] = ["gone": none]
    let kept = places.enter("here", forKey: "gone")
    #expect(!kept.entered && kept.value == nil)
    #expect(places["gone"] == String??.some(nil))
  }
}

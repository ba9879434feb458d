import BundleKitFileSystem
import BundleKitPropertyList
import BundleKitTestSupport
import Testing

struct KeyPathTests {
  let sample: PropertyListValue = [
    "CFBundleURLTypes": [["CFBundleURLSchemes": ["app", "web"]]],
    "com.example.key": "dotted",
    "Nested": ["a": ["b": 1]],
  ]

  @Test("plutil syntax with escaped dots, and PlistBuddy syntax")
  func parse() throws {
    #expect(PropertyListKeyPath("A.B.0").components == ["A", "B", "0"])
    #expect(PropertyListKeyPath("com\\.example\\.key").components == ["com.example.key"])
    #expect(PropertyListKeyPath(":CFBundleURLTypes:0").components == ["CFBundleURLTypes", "0"])
    #expect(PropertyListKeyPath("").components == [])
    #expect(PropertyListKeyPath(":").components == [])
    #expect(PropertyListKeyPath(components: ["a.b", "c"]).description == "a\\.b.c")
    #expect(
      try sample.value(at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes.1")) == "web")
    #expect(
      try sample.value(at: PropertyListKeyPath(":CFBundleURLTypes:0:CFBundleURLSchemes:0")) == "app"
    )
    #expect(try sample.value(at: PropertyListKeyPath("com\\.example\\.key")) == "dotted")
  }

  @Test("errors say which component failed")
  func errors() {
    #expect(
      throws: PropertyListError.keyPath(path: nil, keyPath: "Nested.x", message: "no such key")
    ) {
      try sample.value(at: PropertyListKeyPath("Nested.x.y"))
    }
    #expect(
      throws: PropertyListError.keyPath(
        path: nil, keyPath: "CFBundleURLTypes.5", message: "not an index in an array of 1")
    ) {
      try sample.value(at: PropertyListKeyPath("CFBundleURLTypes.5"))
    }
    #expect(throws: PropertyListError.self) {
      try sample.value(at: PropertyListKeyPath("com\\.example\\.key.more"))
    }
  }

  @Test("set replaces, adds at the end, appends one past the end; remove deletes")
  func edit() throws {
    var value = sample
    try value.setValue("new", at: PropertyListKeyPath("Nested.a.b"))
    #expect(try value.value(at: PropertyListKeyPath("Nested.a.b")) == "new")
    try value.setValue(true, at: PropertyListKeyPath("Nested.added"))
    #expect(value["Nested"]?.dictionaryValue?.keys.last == "added")
    try value.setValue("ftp", at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes.2"))
    #expect(
      try value.value(at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes")) == [
        "app", "web", "ftp",
      ])
    #expect(throws: PropertyListError.self) {
      try value.setValue("x", at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes.9"))
    }
    try value.removeValue(at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes.0"))
    #expect(
      try value.value(at: PropertyListKeyPath("CFBundleURLTypes.0.CFBundleURLSchemes")) == [
        "web", "ftp",
      ])
    try value.removeValue(at: PropertyListKeyPath("com\\.example\\.key"))
    #expect(value["com.example.key"] == nil)
    #expect(throws: PropertyListError.self) {
      try value.removeValue(at: PropertyListKeyPath("missing"))
    }
    // A failed edit leaves the value as it was.
    let before = value
    #expect(throws: PropertyListError.self) {
      try value.setValue("x", at: PropertyListKeyPath("Nested.a.b.c"))
    }
    #expect(value == before)
    try value.setValue(["replaced": true], at: PropertyListKeyPath(""))
    #expect(value == ["replaced": true])
  }
}

import SwiftUI

/// A row of the settings screen with a title the caller localizes.
struct SettingsRow: View {
  let title: LocalizedStringKey
  let detail: String

  init(_ title: LocalizedStringKey, detail: String) {
    self.title = title
    self.detail = detail
  }

  var body: some View {
    LabeledContent(title, value: detail)
  }
}

func sectionHeader(_ title: LocalizedStringResource, systemImage: String) -> some View {
  Label(String(localized: title), systemImage: systemImage)
}

func logEvent(_ name: String) {}

struct SettingsView: View {
  var syncInterval: Double = 15
  let retries = 3
  let storageLimit: Int64 = 5_000_000_000
  let quotaShare: Float = 0.8

  var body: some View {
    Form {
      SettingsRow("Account", detail: "me@example.com")
      SettingsRow("Sync every \(syncInterval) minutes", detail: "")
      sectionHeader("Notifications", systemImage: "bell")
      Text("Retries: \(retries)")
      Text("Storage: \(storageLimit) bytes")
      Text("Quota used: \(quotaShare)")
      Text("Progress: \(retries * 10)%")
      Text("Help", tableName: "Settings", comment: "Opens the help page")
      Text("Privacy Policy", tableName: "Settings", bundle: .module)
    }
    .onAppear { logEvent("settings.appeared") }
  }
}

enum Strings {
  static let welcome = String(
    localized: "welcome.title", defaultValue: "Welcome to Inbox", table: "Onboarding",
    comment: "Title of the first onboarding page")
  static let legacy = NSLocalizedString(
    "legacy.error", tableName: "Errors", value: "Something went wrong", comment: "Generic error")
  static let resource = LocalizedStringResource("Saved", comment: "Shown after saving")
  static let attributed = AttributedString(localized: "**Bold** move")
  static let key: LocalizedStringKey = "Archive"
  static func items(_ count: Int) -> String {
    String(localized: "\(count) items in \(Self.folderName())")
  }
  static func folderName() -> String { "Inbox" }
  static func unknown(_ value: some Any) -> String {
    String(localized: "Value: \(mystery)")
  }
}

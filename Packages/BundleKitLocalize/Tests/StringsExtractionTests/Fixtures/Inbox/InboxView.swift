import SwiftUI

struct Message: Identifiable {
  let id: UUID
  var sender: String
  var subject: String
  var attachmentCount: Int
  var sizeInMegabytes: Double
  var isFlagged: Bool
}

struct InboxView: View {
  let messages: [Message]
  let account: String
  @State private var searchText = ""
  @State private var showsDeleteConfirmation = false
  var unreadCount: Int

  var body: some View {
    NavigationStack {
      List {
        Section("Today") {
          ForEach(messages) { message in
            MessageRow(message: message)
          }
        }
        Section {
          Text("\(messages.count) messages, \(unreadCount) unread")
          Text("Signed in as \(account)")
          Text(verbatim: "build 2026.11")
          Text(account)
        } header: {
          Text("Summary", comment: "Header of the summary section")
        }
      }
      .navigationTitle("Inbox")
      .searchable(text: $searchText, prompt: "Search mail")
      .toolbar {
        Button("Compose", systemImage: "square.and.pencil") {}
        Button(role: .destructive) {
          showsDeleteConfirmation = true
        } label: {
          Label("Delete All", systemImage: "trash")
        }
      }
      .alert("Delete all messages?", isPresented: $showsDeleteConfirmation) {
        Button("Delete", role: .destructive) {}
        Button("Cancel", role: .cancel) {}
      }
    }
  }
}

struct MessageRow: View {
  let message: Message

  var body: some View {
    VStack(alignment: .leading) {
      Text("From \(message.sender)")
      Text(
        "\(message.attachmentCount) attachments (\(message.sizeInMegabytes, specifier: "%.1f") MB)")
      Toggle("Flagged", isOn: .constant(message.isFlagged))
        .accessibilityHint("Marks the message for follow-up")
      Text("Delete", comment: "Swipe action that deletes one message")
    }
  }
}

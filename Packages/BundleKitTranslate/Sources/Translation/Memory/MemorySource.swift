/// A memory that others may change while it is served (PostgreSQL's, shared by replicas):
/// a server asks for its generation now and then and opens it again when it moved.
public protocol MemorySource: Sendable {
  /// A text that changes with every write.
  func generation() async throws -> String
  /// The memory as it is now.
  func open() async throws -> TranslationMemory
}

/// An error that may pass: the database is down or restarting. A server answers 503 with
/// `Retry-After` for it instead of a wrong answer.
public protocol TransientFailure: Error {
  /// Whether trying again later may succeed.
  var isTransient: Bool { get }
}

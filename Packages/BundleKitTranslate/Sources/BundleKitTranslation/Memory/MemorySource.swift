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

/// What an API key may do: `read` keys are counted as their own client, `write` keys may also
/// change their project's entries.
public enum KeyScope: String, Sendable, Hashable, Codable, CaseIterable {
  /// Reads only.
  case read
  /// Reads and review writes in the key's project.
  case write
}

/// What a valid, unrevoked API key grants.
public struct KeyGrant: Sendable, Hashable {
  /// The key's public identifier (the part before the secret).
  public var id: String
  /// The one project the key may write to.
  public var project: String
  /// What it may do there.
  public var scope: KeyScope

  /// A grant.
  public init(id: String, project: String, scope: KeyScope) {
    self.id = id
    self.project = project
    self.scope = scope
  }
}

/// A reviewer's decision on one translation.
public enum ReviewAction: Sendable, Hashable {
  /// Accept the value as it is (state `approved`).
  case approve
  /// Drop the suggestion from the memory.
  case reject
  /// Replace the value, which is then approved.
  case edit(String)
}

/// One translation, named by its unit and language, and what to do with it.
public struct ReviewChange: Sendable, Hashable {
  /// The entry's project.
  public var project: String
  /// The entry's bundle.
  public var bundle: String
  /// The entry's table.
  public var table: String
  /// The entry's key.
  public var key: String
  /// The entry's form (empty for a plain string).
  public var variant: String
  /// The translation's language.
  public var language: String
  /// The decision.
  public var action: ReviewAction

  /// A change.
  public init(
    project: String, bundle: String, table: String, key: String, variant: String = "",
    language: String, action: ReviewAction
  ) {
    self.project = project
    self.bundle = bundle
    self.table = table
    self.key = key
    self.variant = variant
    self.language = language
    self.action = action
  }
}

/// A memory that takes reviews through API keys (PostgreSQL's): the server checks every
/// write request's key here, so a revoked key is refused at its next request.
public protocol MemoryReviewing: Sendable {
  /// What `key` (as `keys create` printed it) grants, or nil when it is unknown or revoked.
  func grant(forKey key: String) async throws -> KeyGrant?
  /// Applies `change` in one transaction; the record as it now is (nil after a rejection),
  /// or ``ReviewOutcome/notFound`` when no such translation exists.
  func review(_ change: ReviewChange) async throws -> ReviewOutcome
}

/// What a review did.
public enum ReviewOutcome: Sendable, Hashable {
  /// The translation as it now stands.
  case updated(TranslationRecord)
  /// The translation was removed.
  case removed
  /// There was no such translation.
  case notFound
}

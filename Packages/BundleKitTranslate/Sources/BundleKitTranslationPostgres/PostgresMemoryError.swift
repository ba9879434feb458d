import BundleKitDiagnostics
import BundleKitTranslation

/// What can go wrong with a memory in PostgreSQL.
public enum PostgresMemoryError: TransientFailure, DiagnosticConvertible, Sendable, Hashable {
  /// The address is not one BundleKit can use.
  case badAddress(address: String, message: String)
  /// The database cannot be reached now (down, restarting, refusing): try again later.
  case unavailable(address: String, message: String)
  /// The database answered with an error.
  case database(address: String, message: String)
  /// The database holds no memory, or one this version cannot use.
  case invalidMemory(address: String, message: String)

  /// Whether trying again later may succeed.
  public var isTransient: Bool {
    if case .unavailable = self { return true }
    return false
  }

  /// One error naming the database.
  public var diagnostics: [Diagnostic] {
    switch self {
    case .badAddress(let address, let message), .unavailable(let address, let message),
      .database(let address, let message), .invalidMemory(let address, let message):
      [.error(address, message)]
    }
  }
}

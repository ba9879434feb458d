import Foundation

/// Where a PostgreSQL memory lives: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
/// (`postgresql://` too), with `?sslmode=require` for TLS. A password not in the address is
/// read from `PGPASSWORD`, as `psql` does.
public struct PostgresAddress: Sendable, Hashable, CustomStringConvertible {
  /// The user to connect as.
  public var user: String
  /// The password, if any.
  public var password: String?
  /// The host name or address.
  public var host: String
  /// The port.
  public var port: Int
  /// The database.
  public var database: String
  /// Whether the connection must use TLS.
  public var requiresTLS: Bool

  /// An address from its parts.
  public init(
    user: String, password: String?, host: String, port: Int, database: String,
    requiresTLS: Bool
  ) {
    self.user = user
    self.password = password
    self.host = host
    self.port = port
    self.database = database
    self.requiresTLS = requiresTLS
  }

  /// The address parsed from `text`, or nil with the reason.
  public static func parse(_ text: String, environment: [String: String] = [:]) -> Result<
    PostgresAddress, PostgresMemoryError
  > {
    guard let components = URLComponents(string: text),
      ["postgres", "postgresql"].contains(components.scheme ?? "")
    else {
      return .failure(
        .badAddress(address: text, message: "not a postgres://USER@HOST:PORT/DATABASE address"))
    }
    guard let user = components.user, !user.isEmpty else {
      return .failure(.badAddress(address: text, message: "names no user (postgres://USER@...)"))
    }
    let database = String(components.path.drop { $0 == "/" })
    guard !database.isEmpty, !database.contains("/") else {
      return .failure(.badAddress(address: text, message: "names no database (.../DATABASE)"))
    }
    let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
    guard ["disable", "require"].contains(mode) else {
      return .failure(
        .badAddress(address: text, message: "sslmode must be disable or require, not \(mode)"))
    }
    return .success(
      PostgresAddress(
        user: user, password: components.password ?? environment["PGPASSWORD"],
        host: components.host ?? "127.0.0.1", port: components.port ?? 5432,
        database: database, requiresTLS: mode == "require"))
  }

  /// The address without its password, for messages.
  public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }
}

import BundleKitTranslation
import Foundation
import PostgresNIO

/// An API key as `keys list` shows it (never its secret).
public struct StoredKey: Sendable, Hashable, Codable {
  /// The public identifier.
  public var id: String
  /// The project it belongs to.
  public var project: String
  /// What it may do.
  public var scope: KeyScope
  /// A note saying whose it is.
  public var label: String
  /// Whether it was revoked.
  public var revoked: Bool
}

extension PostgresMemory: MemoryReviewing {
  // MARK: Keys

  /// Makes a key for `project`; the key's text, shown once: only its digest is stored.
  ///
  /// The text is `bk_ID_SECRET`: the id finds the row, SHA-256 of the secret (worked out by
  /// the database) must equal the stored digest.
  public func createKey(project: String, scope: KeyScope, label: String = "") async throws
    -> String
  {
    var random = SystemRandomNumberGenerator()
    let id = Self.hex(count: 6, using: &random)
    let secret = Self.hex(count: 32, using: &random)
    try await writing { connection, _ in
      _ = try await connection.query(
        """
        INSERT INTO bundlekit_keys (id, digest, project, scope, label)
        VALUES (\(id), sha256(convert_to(\(secret), 'UTF8')), \(project), \(scope.rawValue), \(label))
        """, logger: Self.logger)
    }
    return "bk_\(id)_\(secret)"
  }

  /// Revokes the key with `id` (or the whole key text); whether there was such a key. A
  /// server asks the database about every write, so the key is refused from its next request.
  public func revokeKey(_ idOrKey: String) async throws -> Bool {
    let id = Self.parse(idOrKey)?.id ?? idOrKey
    return try await writing { connection, _ in
      try await connection.query(
        """
        UPDATE bundlekit_keys SET revoked = coalesce(revoked, now()) WHERE id = \(id)
        RETURNING id
        """, logger: Self.logger
      ).collect().isEmpty == false
    }
  }

  /// Every key, by project then id.
  public func keys() async throws -> [StoredKey] {
    try await writing { connection, _ in
      var keys: [StoredKey] = []
      for try await (id, project, scope, label, revoked) in try await connection.query(
        """
        SELECT id, project, scope, label, revoked IS NOT NULL FROM bundlekit_keys
        ORDER BY project COLLATE "C", id COLLATE "C"
        """, logger: Self.logger
      ).decode((String, String, String, String, Bool).self) {
        keys.append(
          StoredKey(
            id: id, project: project, scope: KeyScope(rawValue: scope) ?? .read, label: label,
            revoked: revoked))
      }
      return keys
    }
  }

  /// What `key` grants: nil when it is malformed, unknown or revoked. The secret's digest is
  /// compared by the database; the memory never sees a stored secret.
  public func grant(forKey key: String) async throws -> KeyGrant? {
    guard let (id, secret) = Self.parse(key) else { return nil }
    return try await reading { client in
      let tableExists =
        try await client.query("SELECT to_regclass('bundlekit_keys') IS NOT NULL").collect()
        .first?.decode(Bool.self) ?? false
      guard tableExists else { return nil }
      let rows = try await client.query(
        """
        SELECT project, scope FROM bundlekit_keys
        WHERE id = \(id) AND revoked IS NULL AND digest = sha256(convert_to(\(secret), 'UTF8'))
        """
      ).collect()
      guard let row = rows.first else { return nil }
      let (project, scope) = try row.decode((String, String).self)
      return KeyScope(rawValue: scope).map { KeyGrant(id: id, project: project, scope: $0) }
    }
  }

  // MARK: Reviews

  /// Applies `change` in one transaction under the write lock, and bumps the generation so
  /// that every replica drops its cache.
  public func review(_ change: ReviewChange) async throws -> ReviewOutcome {
    let identity = Self.identity(
      project: change.project, bundle: change.bundle, table: change.table, key: change.key,
      variant: change.variant)
    let language = LanguageTag.normalize(change.language) ?? change.language
    let outcome: ReviewOutcome = try await writing { connection, _ in
      let units = try await connection.query(
        "SELECT id, source FROM bundlekit_units WHERE identity = md5(\(identity))",
        logger: Self.logger
      ).collect()
      guard let unitRow = units.first else { return .notFound }
      let (unit, source) = try unitRow.decode((Int64, String?).self)
      let rows: [PostgresRow]
      switch change.action {
      case .reject:
        rows = try await connection.query(
          """
          DELETE FROM bundlekit_translations WHERE unit = \(unit) AND language = \(language)
          RETURNING value, comment, state
          """, logger: Self.logger
        ).collect()
        guard !rows.isEmpty else { return .notFound }
        try await Self.bumpGeneration(connection)
        return .removed
      case .approve:
        rows = try await connection.query(
          """
          UPDATE bundlekit_translations SET state = 'approved'
          WHERE unit = \(unit) AND language = \(language)
          RETURNING value, comment, state
          """, logger: Self.logger
        ).collect()
      case .edit(let value):
        try Self.checkStorable([
          TranslationRecord(
            bundle: change.bundle, table: change.table, key: change.key, language: language,
            value: value)
        ])
        let normalized = TextNormalizer.normalize(value)
        rows = try await connection.query(
          """
          UPDATE bundlekit_translations SET value = \(value), normalized = \(normalized),
            grams = \(TrigramFilter.encode(normalized)), state = 'approved'
          WHERE unit = \(unit) AND language = \(language)
          RETURNING value, comment, state
          """, logger: Self.logger
        ).collect()
      }
      guard let row = rows.first else { return .notFound }
      let (value, comment, state) = try row.decode((String, String?, String).self)
      try await Self.bumpGeneration(connection)
      return .updated(
        TranslationRecord(
          bundle: change.bundle, table: change.table, key: change.key, variant: change.variant,
          language: language, value: value, comment: comment, source: source,
          project: change.project, state: ReviewState(rawValue: state) ?? .translated))
    }
    return outcome
  }

  // MARK: Key text

  static func hex(count: Int, using random: inout SystemRandomNumberGenerator) -> String {
    let digits = Array("0123456789abcdef")
    var text = ""
    for _ in 0..<count {
      let byte = UInt8.random(in: 0...255, using: &random)
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 15)])
    }
    return text
  }

  /// The id and secret of a key's text, or nil when it is not shaped as one.
  static func parse(_ key: String) -> (id: String, secret: String)? {
    let parts = key.split(separator: "_", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0] == "bk", parts[1].count == 12, parts[2].count == 64,
      parts[1].allSatisfy(\.isHexDigit), parts[2].allSatisfy(\.isHexDigit)
    else { return nil }
    return (String(parts[1]), String(parts[2]))
  }
}

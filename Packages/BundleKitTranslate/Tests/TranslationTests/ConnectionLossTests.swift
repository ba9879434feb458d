// Linux only: the cluster is Debian's PostgreSQL (see PostgresCluster). CI runs on Linux.
#if os(Linux)
  import Foundation
  import PostgresNIO
  import Testing
  @testable import BundleKitTranslationPostgres

  /// A connection that closes under a question. PostgresNIO drops a query written to a
  /// channel that has already closed (it writes it without a promise), so its caller would
  /// wait for ever; a server under load meets exactly that when the database goes away in the
  /// instant between leasing a connection and asking on it.
  ///
  /// Part of the PostgreSQL suite, which runs one test at a time: clusters starting side by
  /// side on two cores can take seconds to give a first connection.
  extension PostgresBackendTests {
    /// Kills the cluster from inside `body`'s lease and waits until the leased connection
    /// has seen it, so the question that follows is written to a closed channel.
    static func crashAndWait(_ cluster: PostgresCluster, _ connection: PostgresConnection)
      async throws
    {
      try cluster.crash()
      let closed = try await eventually(within: .seconds(120), every: .milliseconds(20)) {
        connection.isClosed
      }
      #expect(closed, "the connection did not see the database go")
    }

    /// Whether `error` says `phrase`. When it does not, the server's log goes with the
    /// failure: seen twice in CI, no connection within the 30 s deadline from a server that
    /// `psql` had just reached and that had authorised the pool's connection (long
    /// synchronous tests held the cooperative pool: ``OffThePool``).
    static func says(_ phrase: String, _ error: any Error, _ cluster: PostgresCluster) -> Bool {
      let said = "\(error)".contains(phrase)
      if !said { Issue.record("\(error); the server's log ends:\n\(cluster.logTail())") }
      return said
    }

    /// The memory's deadlines: what these tests are about is the answer when a connection
    /// closes, which comes from the lease within a quarter of a second, not from a deadline.
    /// The deadlines are wide so that a slow machine's late first connection is not taken
    /// for that; a memory that missed the closing would still fail, with the deadline's words.
    static func memory(_ cluster: PostgresCluster) throws -> PostgresMemory {
      PostgresMemory(address: try cluster.database("tm"), connectDeadline: 600)
    }

    @Test("a read whose connection closed fails as unavailable, not at its deadline")
    func readOnClosedConnection() async throws {
      let cluster = try await PostgresCluster.started()
      defer { cluster.stop() }
      let memory = try Self.memory(cluster)
      try await memory.running { memory in
        await #expect {
          try await memory.reading { connection in
            try await Self.crashAndWait(cluster, connection)
            return try await connection.query("SELECT 1").collect().count
          }
        } throws: { error in
          Self.says("the connection closed during the read", error, cluster)
        }
        // Back again: the pool has let the dead connection go and makes a new one.
        try cluster.start()
        let answer = try await memory.reading { connection in
          try await connection.query("SELECT 41 + 1").collect().first?.decode(Int.self)
        }
        #expect(answer == 42)
      }
    }

    @Test("a write whose connection closed fails as unavailable and writes nothing")
    func writeOnClosedConnection() async throws {
      let cluster = try await PostgresCluster.started()
      defer { cluster.stop() }
      let memory = try Self.memory(cluster)
      try await memory.running { memory in
        await #expect {
          try await memory.writing(developmentLanguage: "en") { connection, _ in
            _ = try await connection.query(
              "CREATE TABLE written (id int)", logger: PostgresMemory.logger)
            try await Self.crashAndWait(cluster, connection)
            _ = try await connection.query(
              "INSERT INTO written VALUES (1)", logger: PostgresMemory.logger)
          }
        } throws: { error in
          Self.says("the connection closed during the write", error, cluster)
        }
        try cluster.start()
        // The transaction died with its connection: neither the table nor the schema is there.
        #expect(try cluster.psql("SELECT to_regclass('written') IS NULL", database: "tm") == "t")
      }
    }
  }
#endif

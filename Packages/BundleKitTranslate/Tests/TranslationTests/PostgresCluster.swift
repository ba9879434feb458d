// Linux only: the cluster is Debian's PostgreSQL, run as the `postgres` user when the tests
// run as root, with descriptors closed through /proc. CI runs on Linux.
#if os(Linux)
  import BundleKitTestSupport
  import Foundation
  import Testing
  import BundleKitTranslation
  import BundleKitTranslationPostgres

  #if canImport(Glibc)
    import Glibc
  #endif

  /// A throwaway PostgreSQL cluster for one test: `initdb` in a temporary folder, a server on a
  /// free loopback port, stopped and removed by ``stop()``. As root, the server runs as the
  /// `postgres` user (PostgreSQL refuses root). Debian's `postgresql` package provides it;
  /// `Scripts/bootstrap.sh` installs it on CI.
  final class PostgresCluster: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
      var description: String
    }

    let folder: String
    let port: Int
    private let binaries: String
    private let asRoot = getuid() == 0

    /// The folder holding `initdb` and `pg_ctl`, the newest installed.
    static var binaries: String? {
      let root = "/usr/lib/postgresql"
      let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
        .compactMap(Int.init).sorted()
      return versions.last.map { "\(root)/\($0)/bin" }
    }

    /// A new cluster, made and started off Swift's cooperative pool (``offThePool(_:)``):
    /// `initdb` and `pg_ctl start` wait seconds for their processes on a slow machine, and
    /// the pool's two threads are what PostgresNIO and the other asynchronous tests run on.
    static func started() async throws -> PostgresCluster {
      try await offThePool { try PostgresCluster() }
    }

    init() throws {
      guard let binaries = Self.binaries else {
        throw Failure(
          description:
            "PostgreSQL is not installed (apt-get install -y postgresql; Scripts/bootstrap.sh does it)"
        )
      }
      self.binaries = binaries
      folder = "/tmp/bundlekit-pg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      if asRoot { _ = try Tool.run("/bin/chown", ["postgres", folder]) }
      port = try Self.freePort()
      try run(
        "initdb",
        [
          "-D", "\(folder)/data", "-U", "bk", "--auth=trust", "-E", "UTF8",
          "--locale=C.UTF-8", "-N",
        ])
      try start()
    }

    /// The address of a new, empty database in the cluster.
    func database(_ name: String) throws -> PostgresAddress {
      try psql("CREATE DATABASE \(name)")
      return PostgresAddress(
        user: "bk", password: nil, host: "127.0.0.1", port: port, database: name,
        requiresTLS: false)
    }

    func url(_ database: String) -> String { "postgres://bk@127.0.0.1:\(port)/\(database)" }

    /// Runs SQL through `psql` and returns its unaligned output.
    @discardableResult
    func psql(_ sql: String, database: String = "postgres") throws -> String {
      let result = try Tool.run(
        "/usr/bin/psql",
        [
          "-X", "-q", "-A", "-t", "-h", "127.0.0.1", "-p", String(port), "-U", "bk", "-d", database,
          "-v", "ON_ERROR_STOP=1", "-c", sql,
        ])
      guard result.status == 0 else { throw Failure(description: "psql: \(result.stderr)") }
      return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines)
    }

    func start() throws {
      // The server outlives `pg_ctl` and would inherit every descriptor this process left open,
      // among them the socket by which Foundation's `Process` learns that `pg_ctl` ended (it would
      // then never learn it). A shell closes them all before it runs `pg_ctl`.
      let closeAndRun =
        #"for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec "$@""#
      let pgctl = [
        "\(binaries)/pg_ctl", "-D", "\(folder)/data", "-l", "\(folder)/log", "-w", "-o",
        // Connections and their ends logged: a test that fails for want of a connection
        // shows from the log (`logTail`) whether its attempts reached the server at all.
        "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off"
          + " -c log_connections=on -c log_disconnections=on",
        "start",
      ]
      let command = asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + pgctl : pgctl
      let result = try Tool.run("/bin/bash", ["-c", closeAndRun, "bash"] + command)
      guard result.status == 0 else {
        throw Failure(description: "pg_ctl start failed (\(result.status)): \(result.stderr)")
      }
    }

    /// The end of the server's log (at most `limit` bytes), for a failure's message.
    func logTail(_ limit: Int = 4000) -> String {
      guard let log = FileManager.default.contents(atPath: "\(folder)/log") else {
        return "(no server log at \(folder)/log)"
      }
      return String(decoding: log.suffix(limit), as: UTF8.self)
    }

    /// Stops the server at once, as a crash would: open transactions are lost, committed ones
    /// are not.
    func crash() throws {
      try run("pg_ctl", ["-D", "\(folder)/data", "-m", "immediate", "-w", "stop"])
    }

    /// Stops the server and removes the cluster.
    func stop() {
      _ = try? run("pg_ctl", ["-D", "\(folder)/data", "-m", "immediate", "-w", "stop"])
      try? FileManager.default.removeItem(atPath: folder)
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
      let path = "\(binaries)/\(tool)"
      let result =
        asRoot
        ? try Tool.run("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments)
        : try Tool.run(path, arguments)
      guard result.status == 0 else {
        throw Failure(description: "\(tool) failed (\(result.status)): \(result.stderr)")
      }
    }

    private static func freePort() throws -> Int {
      let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      defer { close(socket) }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      address.sin_port = 0
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
        }
      }
      guard bound else { throw Failure(description: "no free port") }
      return Int(UInt16(bigEndian: address.sin_port))
    }
  }

  /// One cluster for a whole suite (`@Suite(.sharedCluster)`): started before the suite's
  /// first test, stopped and removed after its last, and found by the tests in
  /// ``current``. Each test takes a database of its own in it; `initdb` and a start are a
  /// second or two each, once per suite instead of once per test.
  struct SharedCluster: SuiteTrait, TestScoping {
    /// The cluster of the suite running, if it asked for one.
    @TaskLocal static var current: PostgresCluster?

    func provideScope(
      for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
      let cluster = try await PostgresCluster.started()
      defer { cluster.stop() }
      try await Self.$current.withValue(cluster) { try await function() }
    }
  }
#endif

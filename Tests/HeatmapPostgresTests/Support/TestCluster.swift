import Foundation
import HeatmapPostgres
import HeatmapTestSupport
import Testing

/// A throwaway PostgreSQL cluster on a free loopback port: `initdb` in a temporary folder (as
/// the `postgres` user when the tests run as root, which `initdb` refuses), `pg_ctl start`,
/// and at the process's exit `pg_ctl stop` and the folder removed (an `owner` file names the
/// test process, so that a later one sweeps the cluster away should this one die first: see
/// TestCluster+Sweep). One for the test process, started on first use; tests keep apart by
/// table names.
final class TestCluster: Sendable {
    /// The password of the cluster's `postgres` user (scram-sha-256 over TCP).
    static let password = "s3cret-Pa55word"

    let folder: String
    let port: Int
    let binaries: String
    /// Extra server settings, as `-c name=value` words for `postgres`.
    let settings: [String]

    /// The shared cluster, or why there is none.
    static let shared: Result<TestCluster, TestClusterError> = Result { () throws(TestClusterError) in
        let cluster = try TestCluster()
        atexit { TestCluster.stopShared() }
        return cluster
    }

    /// The shared cluster; throws when PostgreSQL's binaries are missing or it cannot start.
    /// Tests that call it carry ``Testing/Trait/needsPostgres``, so that without PostgreSQL they
    /// are skipped with the reason, never counted as passed.
    static func require() throws -> TestCluster {
        try shared.get()
    }

    /// Whether PostgreSQL tests run here: its binaries are installed, or `CI_REQUIRE_POSTGRES`
    /// is set (CI sets it: a test then fails where the binaries are missing, never skipped).
    static let canRun = binariesFolder() != nil || ProcessInfo.processInfo.environment["CI_REQUIRE_POSTGRES"] != nil

    /// Whether PostGIS tests run here: PostgreSQL's tests do and PostGIS is installed for the
    /// newest PostgreSQL, or `CI_REQUIRE_POSTGRES` is set.
    static let canRunPostGIS: Bool = {
        if ProcessInfo.processInfo.environment["CI_REQUIRE_POSTGRES"] != nil { return true }
        guard let binaries = binariesFolder() else { return false }
        let version = URL(fileURLWithPath: binaries).deletingLastPathComponent().lastPathComponent
        return FileManager.default.fileExists(atPath: "/usr/share/postgresql/\(version)/extension/postgis.control")
    }()

    private static func stopShared() {
        if case .success(let cluster) = shared { cluster.stop() }
    }

    /// A connection string with the password, as a user would write it.
    var url: String { url(database: "postgres") }

    /// The URL of `database` of the cluster.
    func url(database: String) -> String { "postgresql://postgres:\(Self.password)@127.0.0.1:\(port)/\(database)" }

    /// `CREATE EXTENSION IF NOT EXISTS name` on `connection` under the lock HeatmapKit's schema
    /// changes take (an import in another suite may make it at the same time).
    static func createExtension(_ name: String, on connection: PostgresConnection) throws {
        try connection.execute("BEGIN")
        try connection.execute("SELECT pg_advisory_xact_lock(\(0x4865_6174_6D61_70))")
        try connection.execute("CREATE EXTENSION IF NOT EXISTS \(name)")
        try connection.execute("COMMIT")
    }

    /// A new, empty database of the cluster (dropped first if a run before left it), for a test
    /// that needs objects no other test shares (its own `heatmap_key`, say); its URL.
    func freshDatabase(_ name: String) throws -> String {
        let admin = try PostgresConnection(conninfo)
        try admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        try admin.execute("CREATE DATABASE \(name)")
        return url(database: name)
    }
    var conninfo: ConnectionString { ConnectionString(url) }

    /// A new cluster of its own in a folder of `parent` (the temporary folder), started, with
    /// the server `settings` (`name=value`) besides the usual ones;
    /// `stop()` removes it. The first in a process first sweeps away the clusters of test
    /// processes that died (see ``sweepStale(in:)``).
    init(parent: String = NSTemporaryDirectory(), settings: [String] = []) throws(TestClusterError) {
        guard let bin = Self.binariesFolder() else { throw .binariesMissing }
        _ = Self.sweptAtStart
        binaries = bin
        self.settings = settings
        folder =
            (parent.hasSuffix("/") ? parent : parent + "/")
            + "heatmap-pg-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        port = LoopbackPort.free()
        let passwordFile = folder + "/password"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data(Self.ownerLine.utf8).write(to: URL(fileURLWithPath: folder + "/" + Self.ownerFile))
            try Data(Self.password.utf8).write(to: URL(fileURLWithPath: passwordFile))
        } catch {
            throw .failed("\(folder): \(error)")
        }
        if getuid() == 0 {
            try Self.run("/usr/bin/chown", ["-R", "postgres:postgres", folder])
        }
        try asPostgres(
            "\(bin)/initdb",
            [
                "-D", folder + "/data", "-U", "postgres", "--auth-host=scram-sha-256", "--auth-local=trust",
                "--pwfile=\(passwordFile)", "-E", "UTF8", "--no-sync",
            ])
        try start()
    }

    /// Starts the server (again).
    func start() throws(TestClusterError) {
        try asPostgres(
            "\(binaries)/pg_ctl",
            [
                "-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "60", "-o",
                "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off"
                    + settings.map { " -c \($0)" }.joined(),
                "start",
            ])
    }

    /// Stops the server, keeping its data.
    func stopServer() throws(TestClusterError) {
        try asPostgres("\(binaries)/pg_ctl", ["-D", folder + "/data", "-m", "fast", "-w", "stop"])
    }

    /// Stops the server at once and removes its folder.
    func stop() {
        try? asPostgres("\(binaries)/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs a PostgreSQL program, as the `postgres` user when root.
    func asPostgres(_ program: String, _ arguments: [String]) throws(TestClusterError) {
        if getuid() == 0 {
            try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", program] + arguments)
        } else {
            try Self.run(program, arguments)
        }
    }

    /// Runs a program to its end with posix_spawn and waitpid (Foundation's Process waits for
    /// every process that inherited its descriptors, and the server pg_ctl starts lives on).
    static func run(_ program: String, _ arguments: [String]) throws(TestClusterError) {
        let outputPath = NSTemporaryDirectory() + "heatmap-pg-output-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = emptySpawnFileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = emptySpawnAttributes()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // pg_ctl's server lives on: it must not keep another test's command pipes open.
        inheritOnlyStandardDescriptors(&actions, &attributes)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, &attributes, argv, processEnvironment)
        guard spawned == 0 else { throw .failed("\(program): posix_spawn failed (\(spawned))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            throw .failed("\(program) \(arguments.joined(separator: " ")) exited with status \(status): \(text)")
        }
    }
}

/// Why a test cluster is not there.
enum TestClusterError: Error, Sendable, CustomStringConvertible {
    case binariesMissing
    case failed(String)

    var description: String {
        switch self {
        case .binariesMissing: return "PostgreSQL's binaries are missing"
        case .failed(let reason): return "test cluster: \(reason)"
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// The test needs a PostgreSQL cluster (``TestCluster``): skipped, saying so, where
    /// PostgreSQL's binaries are missing, unless `CI_REQUIRE_POSTGRES` makes it fail instead.
    static var needsPostgres: Self {
        .enabled(
            if: TestCluster.canRun,
            "needs PostgreSQL: no initdb and pg_ctl under /usr/lib/postgresql/*/bin (apt-get install postgresql)")
    }

    /// The test needs PostGIS in the cluster: skipped, saying so, where it is not installed,
    /// unless `CI_REQUIRE_POSTGRES` makes it fail instead.
    static var needsPostGIS: Self {
        .enabled(
            if: TestCluster.canRunPostGIS,
            "needs PostGIS for the newest PostgreSQL installed (apt-get install postgresql-15-postgis-3)")
    }
}

import Foundation
import HeatmapPostgres
import HeatmapTestSupport

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

    /// The cluster, or `nil` with the reason printed when PostgreSQL's binaries are missing
    /// (a test then says so and checks nothing more). Other failures throw.
    static func require() throws -> TestCluster? {
        switch shared {
        case .success(let cluster): return cluster
        case .failure(.binariesMissing):
            print("PostgreSQL tests skipped: no initdb and pg_ctl under /usr/lib/postgresql/*/bin")
            return nil
        case .failure(let error): throw error
        }
    }

    private static func stopShared() {
        if case .success(let cluster) = shared { cluster.stop() }
    }

    /// A connection string with the password, as a user would write it.
    var url: String { "postgresql://postgres:\(Self.password)@127.0.0.1:\(port)/postgres" }
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
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for arg in argv { free(arg) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, processEnvironment)
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

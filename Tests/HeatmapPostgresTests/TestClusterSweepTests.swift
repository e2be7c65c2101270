import Foundation
import HeatmapTestSupport
import Testing

@testable import HeatmapPostgres

/// The sweep of throwaway clusters left by dead test processes (``TestCluster/sweepStale(in:)``).
@Suite(.needsPostgres) struct TestClusterSweepTests {
    /// The pid of a process that has ended.
    static func deadPid() throws -> Int32 {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { for arg in argv { free(arg) } }
        try #require(posix_spawn(&pid, "/bin/true", nil, nil, argv, processEnvironment) == 0)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return pid
    }

    /// The postmaster's pid of a cluster, from its postmaster.pid.
    static func postmaster(_ cluster: TestCluster) throws -> Int32 {
        let text = try String(contentsOfFile: cluster.folder + "/data/postmaster.pid", encoding: .utf8)
        return try #require(text.split(separator: "\n").first.flatMap { Int32($0) })
    }

    /// Whether process `pid` is gone (or a zombie) within 10 s: `pg_ctl stop -w` returns once
    /// the server removed its pid file, a moment before it exits.
    static func ends(_ pid: Int32) -> Bool {
        for _ in 0..<500 {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            let state = stat.lastIndex(of: ")").map { stat[stat.index(after: $0)...].dropFirst().first } ?? nil
            if kill(pid, 0) != 0 || state == "Z" { return true }
            usleep(20_000)
        }
        return false
    }

    @Test("a cluster whose test process died is stopped and removed; one of a live process is left running")
    func sweepsOnlyTheDead() throws {
        _ = try TestCluster.require()
        let parent = NSTemporaryDirectory() + "heatmap-sweep-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let orphan = try TestCluster(parent: parent)
        let live = try TestCluster(parent: parent)
        defer {
            orphan.stop()
            live.stop()
        }
        let server = try Self.postmaster(orphan)
        #expect(try PostgresConnection(orphan.conninfo).execute("SELECT 1").text(0, 0) == "1")
        // The orphan's owner is now a process that has ended, as after a crash.
        try Data("\(try Self.deadPid()) 1\n".utf8).write(
            to: URL(fileURLWithPath: orphan.folder + "/" + TestCluster.ownerFile))
        // Something that is not a cluster folder is left alone too.
        let stray = parent + "/heatmap-pg-notapid"
        try FileManager.default.createDirectory(atPath: stray, withIntermediateDirectories: true)
        // The output file of a program the dead process ran goes too; a live one's stays.
        let deadOutput = parent + "/heatmap-pg-output-\(try Self.deadPid())-1"
        let liveOutput = parent + "/heatmap-pg-output-\(getpid())-1"
        for path in [deadOutput, liveOutput] { try Data("x".utf8).write(to: URL(fileURLWithPath: path)) }

        let swept = TestCluster.sweepStale(in: parent)

        #expect(Set(swept) == [orphan.folder, deadOutput])
        #expect(FileManager.default.fileExists(atPath: liveOutput))
        #expect(!FileManager.default.fileExists(atPath: orphan.folder))
        #expect(Self.ends(server), "the orphan's postmaster \(server) still runs")
        #expect(throws: PostgresError.self) { try PostgresConnection(orphan.conninfo) }
        #expect(FileManager.default.fileExists(atPath: live.folder))
        #expect(try PostgresConnection(live.conninfo).execute("SELECT 1").text(0, 0) == "1")
        #expect(FileManager.default.fileExists(atPath: stray))
        #expect(TestCluster.isAlive((getpid(), TestCluster.startTime(of: getpid()))))
        #expect(!TestCluster.isAlive((getpid(), 1)), "a pid used again by another process is not its owner")
    }
}

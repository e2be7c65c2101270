import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTestSupport
import Testing

@testable import HeatmapPostgres

/// `import` from a file, streamed a chunk at a time: the same rows and errors as reading the
/// file whole, and all or nothing.
@Suite(.serialized, .needsPostgres) struct StreamingImportTests {
    /// A file of `rows` CSV rows (and `extra` after them) in a folder of its own.
    static func file(rows: Int, extra: String = "", name: String = "points.csv") throws -> String {
        let folder = NSTemporaryDirectory() + "heatmap-stream-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var text = "lat,lng,weight\n"
        for i in 0..<rows { text += "\(Double(i % 170) * 0.5 - 42),\(Double(i % 350) * 0.01 + 144),\(i % 7)\n" }
        let path = folder + "/" + name
        try Data((text + extra).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func count(_ table: String, on connection: PostgresConnection) throws -> String? {
        try connection.execute("SELECT count(*) FROM \(table)").text(0, 0)
    }

    @Test("a file streamed in small chunks loads every row, and draws the tiles of the file read whole")
    func streamed() throws {
        let cluster = try TestCluster.require()
        let path = try Self.file(rows: 2500)
        var heard: [Int] = []
        let loaded = try PostgresImport.run(
            path: path, into: "streamed", connection: cluster.conninfo, mode: .replace, chunkSize: 300
        ) { heard.append($0) }
        #expect(loaded.summary.rows == 2500 && loaded.report.pointsRead == 2500)
        #expect(heard == Array(stride(from: 300, through: 2400, by: 300)) + [2500])
        let memory = try PointFileReader.read(path: path).index
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "streamed"))
        for (zoom, x, y) in [(0, 0, 0), (4, 14, 9), (7, 115, 78)] {
            let space = try PixelSpace(zoom: zoom, scale: 1)
            let rect = PixelRect(tileX: x, y: y, in: space)
            let a = memory.intensity(in: rect, space: space, kernel: GaussianKernel(radius: 20))
            let b = try source.intensity(in: rect, space: space, kernel: GaussianKernel(radius: 20))
            let worst = zip(a.values, b.values).map { abs($0 - $1) / max($0, $1, .leastNormalMagnitude) }.max()
            #expect(!a.isEmpty && a.values.count == b.values.count && (worst ?? 1) <= 1e-6, "tile \(zoom)/\(x)/\(y)")
        }
    }

    @Test("an invalid row late in the file, after chunks were sent, leaves the table as it was, in every mode")
    func lateInvalidRow() throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        let good = try Self.file(rows: 40)
        let bad = try Self.file(rows: 3000, extra: "-37.8,145,-2\n")
        let expected = PointFileError(
            path: bad, line: 3002,
            reason: "weight \"-2\" is negative; weights are finite numbers ≥ 0")
        try connection.execute("DROP TABLE IF EXISTS late_new")
        for mode in [PostgresImport.Mode.create, .replace] {
            #expect(throws: PostgresImportError.data(expected)) {
                try PostgresImport.run(
                    path: bad, into: "late_new", connection: cluster.conninfo, mode: mode, chunkSize: 256)
            }
            #expect(try connection.execute("SELECT to_regclass('late_new') IS NULL").text(0, 0) == "t")
        }
        _ = try PostgresImport.run(path: good, into: "late", connection: cluster.conninfo, mode: .replace)
        let version = "SELECT version FROM heatmap_versions WHERE table_name = 'public.late'"
        let before = try connection.execute(version).text(0, 0)
        for mode in [PostgresImport.Mode.append, .replace] {
            #expect(throws: PostgresImportError.data(expected)) {
                try PostgresImport.run(
                    path: bad, into: "late", connection: cluster.conninfo, mode: mode, chunkSize: 256)
            }
            #expect(try Self.count("late", on: connection) == "40", "\(mode)")
            #expect(try connection.execute(version).text(0, 0) == before, "the change count too")
        }
        // The same file with --skip-invalid loads its valid rows and reports the bad one.
        let loaded = try PostgresImport.run(
            path: bad, options: PointReadOptions(skipInvalid: true), into: "late", connection: cluster.conninfo,
            mode: .append, chunkSize: 256)
        #expect(loaded.summary.rows == 3000 && loaded.report.skippedLines == [3002])
        #expect(try Self.count("late", on: connection) == "3040")
    }

    @Test("file errors come before the database: a missing or empty file fails without connecting")
    func fileFirst() throws {
        let cluster = try TestCluster.require()
        let nowhere = ConnectionString("postgresql://postgres@127.0.0.1:\(LoopbackPort.free())/postgres")
        let missing = NSTemporaryDirectory() + "heatmap-no-such-\(UUID().uuidString).csv"
        #expect(throws: PostgresImportError.data(PointFileError(path: missing, reason: "cannot be read: no such file")))
        {
            try PostgresImport.run(path: missing, into: "never", connection: nowhere, mode: .create)
        }
        let empty = try Self.file(rows: 0)
        #expect(
            throws: PostgresImportError.data(PointFileError(path: empty, reason: "has a header but no rows of points"))
        ) {
            try PostgresImport.run(path: empty, into: "never", connection: cluster.conninfo, mode: .create)
        }
        let connection = try PostgresConnection(cluster.conninfo)
        #expect(try connection.execute("SELECT to_regclass('never') IS NULL").text(0, 0) == "t")
        // A good file and the database down: the connection's error, without the password.
        let good = try Self.file(rows: 5)
        do {
            _ = try PostgresImport.run(path: good, into: "never", connection: nowhere, mode: .create)
            Issue.record("imported into a server that is not there")
        } catch {
            guard case .database(.connectionFailed) = error else {
                Issue.record("expected a connection failure, got \(error)")
                return
            }
        }
    }

    @Test("the database's refusal mid-stream (the table exists) is the error, and nothing is left behind")
    func databaseError() throws {
        let cluster = try TestCluster.require()
        let path = try Self.file(rows: 1000)
        _ = try PostgresImport.run(path: path, into: "refused", connection: cluster.conninfo, mode: .replace)
        #expect(throws: PostgresImportError.database(.tableExists("refused"))) {
            try PostgresImport.run(path: path, into: "refused", connection: cluster.conninfo, mode: .create)
        }
        let connection = try PostgresConnection(cluster.conninfo)
        #expect(try Self.count("refused", on: connection) == "1000")
    }
}

import Foundation
import HeatmapKit

extension PostgresShardedImport {
    /// Loads the points of the file at `path` (any format the readers read, with the same
    /// options and errors; `-` for standard input) into `table` over `shards`, with the time and
    /// category columns `options` name (see ``ImportedFields``: on every shard's table, in its
    /// key index's `INCLUDE`, and on the coordinator's partitioned table), streaming, in two
    /// reads of the file: the first checks every row and counts the rows of each of the 256
    /// cells of the partition key, which places the shards' cuts (``ShardLayout``); the second
    /// routes each chunk of `chunkSize` points to the shards' open `COPY`s. Memory stays
    /// bounded whatever the file's size; standard input is first copied to a temporary file
    /// (removed at the end), since it cannot be read twice. A file that cannot be read, or an
    /// invalid row (unless `options.skipInvalid`), fails in the first read, before any server
    /// is reached.
    ///
    /// `progress` hears the rows sent so far and the total after each chunk. `timeSummaries`
    /// (`--time-summaries`) is refused: the shards keep no time summaries.
    ///
    /// - Throws: ``PostgresImportError/data(_:)`` naming the file, line and column, or
    ///   ``PostgresImportError/database(_:)`` (see ``ShardedLoad`` for what a failure leaves).
    package static func run(
        path: String, options: PointReadOptions = .init(), into table: String, coordinator: ConnectionString,
        shards: [ConnectionString], mode: PostgresImport.Mode, timeSummaries: Bool = false, chunkSize: Int = 1 << 15,
        progress: ((_ sent: Int, _ total: Int) -> Void)? = nil
    ) throws(PostgresImportError) -> (summary: PostgresImport.Summary, report: PointFileReport) {
        let start = ContinuousClock.now
        let fields = ImportedFields(options, timeSummaries: timeSummaries)
        do {
            try checkCount(shards)
            try ShardedLoad.check(fields, table: table)
        } catch {
            throw .database(error)
        }
        let spool = path == "-" ? try spoolStandardInput() : nil
        defer { if let spool { try? FileManager.default.removeItem(atPath: spool) } }
        let readPath = spool ?? path
        /// The error as the user's path names it, not the spool's.
        func named(_ error: PointFileError) -> PointFileError {
            var error = error
            if error.path == readPath { error.path = path }
            return error
        }
        var counts = ShardLayout.emptyCounts
        var total = 0
        var report: PointFileReport
        do {
            report = try PointFileReader.readPoints(path: readPath, options: options, chunkSize: chunkSize) { chunk in
                for point in chunk { ShardLayout.count(point, in: &counts) }
                total += chunk.count
            }
        } catch {
            throw .data(named(error))
        }
        report.path = path
        guard total > 0 else { throw .data(PointFileError(path: path, reason: "holds no points")) }
        let load: ShardedLoad
        do {
            load = try ShardedLoad(
                table: table, coordinator: coordinator, shards: shards,
                layout: ShardLayout(shards: shards.count, counts: counts), mode: mode, fields: fields)
        } catch {
            throw .database(error)
        }
        var failure: PostgresError?
        do {
            _ = try PointFileReader.readPoints(path: readPath, options: options, chunkSize: chunkSize) {
                (chunk, values) throws(PointFileError) in
                do throws(PostgresError) {
                    try load.append(chunk, values: values)
                    progress?(load.rowsSent, total)
                } catch {
                    failure = error
                    // Stops the read; the database's error is the one thrown below.
                    throw PointFileError(path: path, reason: "import stopped: \(error)")
                }
            }
        } catch {
            load.rollback(reason: "import stopped: \(error.description)")
            throw failure.map(PostgresImportError.database) ?? .data(named(error))
        }
        guard load.rowsSent == total else {
            load.rollback(reason: "the file changed")
            throw .data(
                PointFileError(
                    path: path,
                    reason: "changed while it was imported: \(total) points in the first read, "
                        + "\(load.rowsSent) in the second (nothing was loaded)"))
        }
        do {
            let rows = try load.finish()
            return (PostgresImport.Summary(rows: rows, duration: ContinuousClock.now - start), report)
        } catch {
            throw .database(error)
        }
    }

    /// Copies standard input to a temporary file, for the two reads; its path.
    static func spoolStandardInput() throws(PostgresImportError) -> String {
        let path = NSTemporaryDirectory() + "heatmap-import-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        func failed(_ reason: String) -> PostgresImportError {
            .data(PointFileError(path: "-", reason: "could not copy standard input to \(path) (\(reason))"))
        }
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let output = FileHandle(forWritingAtPath: path)
        else { throw failed("cannot create it") }
        defer { try? output.close() }
        do {
            while let data = try FileHandle.standardInput.read(upToCount: 1 << 20), !data.isEmpty {
                try output.write(contentsOf: data)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw failed("\(error)")
        }
        return path
    }
}

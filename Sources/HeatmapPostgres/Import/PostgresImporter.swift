import HeatmapCore
import HeatmapKit

/// A load into a table by binary `COPY`, fed a chunk of points at a time, so that memory
/// stays bounded whatever the number of points: made with the table (created, replaced or
/// appended to, as ``PostgresImport/Mode`` says), fed by ``append(_:)``, and ended by
/// ``finish()``, which builds the summaries and the index and commits. It is one
/// transaction: an error, ``cancel(reason:)``, or the importer going away before `finish()`
/// rolls it back, leaving the table as it was (a replaced table included).
///
/// ```swift
/// let importer = try PostgresImporter(table: "crimes", connection: conninfo, mode: .create)
/// for chunk in chunks { try importer.append(chunk) }
/// let summary = try importer.finish()
/// ```
///
/// One caller at a time: it owns its connection.
package final class PostgresImporter {
    private let connection: PostgresConnection
    private let table: String
    private let quoted: String
    private let names: ObjectNames
    private let fresh: Bool
    /// Whether the table appended to is sharded (partitioned over `postgres_fdw` shards).
    private let sharded: Bool
    /// The time and category columns copied beside the positions.
    private let fields: ImportedFields
    private let start: ContinuousClock.Instant
    private var bytes: [UInt8] = []
    private var open = true
    private var copying = true
    /// The rows sent so far.
    package private(set) var rowsSent = 0

    /// The bytes of `COPY` data gathered before they go to the server.
    static let sendSize = 1 << 20

    /// Connects, checks every name it will make (see ``ImportObjects``: one that exists and was
    /// not made by HeatmapKit is refused before anything is written), installs what tables
    /// share, and in one transaction makes the table (or checks the one to append to) and
    /// starts the `COPY`.
    ///
    /// - Throws: ``PostgresError``: the table exists (``PostgresImport/Mode/create``), is not
    ///   one `import` made (``PostgresImport/Mode/append``, ``PostgresImport/Mode/replace``), a
    ///   name it makes is someone else's (``PostgresError/notMadeByHeatmapKit(kind:name:found:)``),
    ///   the name is too long (``PostgresError/nameTooLong(name:bytes:)``), a column of `fields`
    ///   is a position's or missing from the table appended to
    ///   (``PostgresError/filterColumnUnusable(table:column:reason:)``), or the server refused.
    package init(
        table: String, connection conninfo: ConnectionString, mode: PostgresImport.Mode,
        fields: ImportedFields = .init()
    ) throws(PostgresError) {
        try fields.checkNames(table: table)
        self.fields = fields
        start = ContinuousClock.now
        let connection = try PostgresConnection(conninfo)
        let quoted = PostgresConnection.quoted(identifier: table)
        let names = ObjectNames(table: table, encoding: connection.serverEncoding)
        self.connection = connection
        self.table = table
        self.quoted = quoted
        self.names = names
        // Every name it makes, before anything is written; the table itself before --replace drops it.
        try ObjectNames.check(table, on: connection)
        try MadeObject.check(
            ImportObjects.shared + ImportObjects.perTable(names, quoted: quoted)
                + (mode == .replace ? [ImportObjects.table(names, quoted: quoted)] : []), on: connection)
        // What tables share, in a short transaction of its own: concurrent imports of other
        // tables then never wait for each other.
        try PositionSQL.install(
            on: connection,
            extra: ChangeCounter.sharedStatements + [
                PostgresImport.fillPositionFunction, CellSummaries.sharedStatement, TimeSummaries.sharedStatement,
                MaximumStore.createStatement,
            ] + ChangeLog.sharedStatements + [ChangeLog.function, LiveSummaries.function],
            objects: ImportObjects.shared)
        try connection.execute("BEGIN")
        do throws(PostgresError) {
            let exists = try connection.execute("SELECT to_regclass($1) IS NOT NULL", [quoted]).text(0, 0) == "t"
            var fresh = !exists
            var sharded = false
            switch (exists, mode) {
            case (true, .create): throw .tableExists(table)
            case (true, .replace):
                try connection.execute("DROP TABLE \(quoted)")
                fresh = true
            case (true, .append):
                let layout = try PostgresSource.layout(of: PostgresTable(name: table), on: connection)
                guard layout.imported else {
                    throw .invalidAnswer("table \(table) was not made by heatmap import (no x, y and key columns)")
                }
                sharded = layout.partitionShift != nil
                if sharded, fields.timeSummaries {
                    throw .filterColumnUnusable(
                        table: table, column: fields.timeColumn ?? "",
                        reason: "a sharded table keeps no time summaries: append without --time-summaries")
                }
                try fields.checkExisting(quoted, table: table, on: connection)
                if !sharded { try PostgresImport.remakeRowTriggers(quoted, names: names, on: connection) }
            default: break
            }
            self.fresh = fresh
            self.sharded = sharded
            if fresh {
                for statement in PostgresImport.createStatements(quoted, names: names, fields: fields) {
                    try connection.execute(statement)
                }
                let trigger = MadeObject.quoted(names.name("_changes"))
                try connection.execute(ChangeCounter.triggerStatement(table: quoted, trigger: trigger))
            }
            try connection.beginCopy("COPY \(quoted) (\(fields.copyColumns)) FROM STDIN (FORMAT binary)")
        } catch {
            _ = try? connection.execute("ROLLBACK")
            open = false
            throw error
        }
        bytes.reserveCapacity(Self.sendSize + 4096)
        bytes.append(contentsOf: CopyEncoder.header)
    }

    deinit {
        if open { cancel(reason: "import stopped") }
    }

    /// Sends `points` (encoded with their fixed-point position and Morton key, as the index
    /// keys them); weights are stored as `real`, as the index stores them. With time or
    /// category columns (`fields` of ``init(table:connection:mode:fields:)``), `values` holds
    /// each point's, in order.
    ///
    /// - Throws: ``PostgresError`` (the load is then rolled back), also when `values` lack a
    ///   point's time or categories.
    package func append(_ points: some Collection<WeightedLatLng>, values: PointChunkFields? = nil)
        throws(PostgresError)
    {
        guard open else { throw .invalidAnswer("the import of \(table) was already finished or cancelled") }
        do throws(PostgresError) {
            try fields.check(values, count: points.count)
            for (i, point) in points.enumerated() {
                let x = UInt64(WebMercator.unitX(longitude: point.coordinate.longitude))
                let y = UInt64(WebMercator.unitY(latitude: point.coordinate.latitude))
                CopyEncoder.append(
                    latitude: point.coordinate.latitude, longitude: point.coordinate.longitude,
                    weight: Float(point.intensity), x: x, y: y, key: KeyRanges.key(x: x, y: y),
                    extraFields: fields.names.count, to: &bytes)
                fields.append(values, at: i, to: &bytes)
                if bytes.count >= Self.sendSize { try send() }
            }
            rowsSent += points.count
        } catch {
            cancel(reason: "import stopped")
            throw error
        }
    }

    /// Ends the `COPY`, builds the summaries (and, for a new table, the B-tree on `key`),
    /// commits and analyses; returns the rows the server copied and the time since connecting.
    ///
    /// - Throws: ``PostgresError``, a row refused by the table's checks say (the load is then
    ///   rolled back).
    package func finish() throws(PostgresError) -> PostgresImport.Summary {
        guard open else { throw .invalidAnswer("the import of \(table) was already finished or cancelled") }
        open = false
        do throws(PostgresError) {
            bytes.append(contentsOf: CopyEncoder.trailer)
            try send()
            copying = false
            let rows = try connection.endCopy()
            try PostgresImport.finishLoad(
                table: table, quoted: quoted, names: names, fresh: fresh, rows: rows, sharded: sharded,
                fields: fields, on: connection)
            return PostgresImport.Summary(rows: rows, duration: ContinuousClock.now - start)
        } catch {
            if copying { connection.abortCopy(reason: "import stopped") }
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Stops the load and rolls it back: the table is left as it was.
    package func cancel(reason: String) {
        guard open else { return }
        open = false
        connection.abortCopy(reason: reason)
        _ = try? connection.execute("ROLLBACK")
    }

    private func send() throws(PostgresError) {
        try connection.sendCopyData(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}

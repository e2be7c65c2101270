import Foundation
import HeatmapKit

/// Loads points into a table through binary `COPY`: plain `lat`, `lng` and `weight` columns
/// (so that `INSERT INTO t (lat, lng, weight) …` works), the fixed-point `x`, `y` and Morton
/// `key` of the in-memory index (computed here for the rows copied, and by a trigger from the
/// SQL functions of ``PositionSQL`` for rows inserted or moved later), a B-tree on `key`, and
/// a trigger that counts the changes to the rows (see ``PostgresSource/changeCount()``).
package enum PostgresImport {
    /// What to do with a table that exists.
    package enum Mode: Sendable, Hashable {
        /// Refuse it (``PostgresError/tableExists(_:)``).
        case create
        /// Add the rows to it (it must be a table `import` made).
        case append
        /// Drop it and make it afresh, in the same transaction as the load.
        case replace
    }

    /// What was loaded.
    package struct Summary: Sendable, Hashable {
        /// The rows copied.
        package var rows: Int
        /// The time the load took, from connecting to the commit.
        package var duration: Duration

        /// Rows a second.
        package var rowsPerSecond: Double {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            return seconds > 0 ? Double(rows) / seconds : 0
        }
    }

    /// Loads `points` into `table`, in one transaction (through a ``PostgresImporter``);
    /// `progress` hears the rows sent so far and the total after each chunk.
    ///
    /// - Throws: ``PostgresError``: the table exists (``Mode/create``), is not one `import`
    ///   made (``Mode/append``), or the server refused.
    package static func run(
        points: [WeightedLatLng], into table: String, connection conninfo: ConnectionString, mode: Mode,
        progress: ((_ sent: Int, _ total: Int) -> Void)? = nil
    ) throws(PostgresError) -> Summary {
        let importer = try PostgresImporter(table: table, connection: conninfo, mode: mode)
        var next = 0
        repeat {
            let end = min(points.count, next + (1 << 15))
            try importer.append(points[next..<end])
            next = end
            progress?(next, points.count)
        } while next < points.count
        return try importer.finish()
    }

    /// What follows the `COPY` in its transaction: the summaries of `table` (`quoted`, with
    /// `rows` copied), the B-tree on `key` for a `fresh` table, the commit, and `VACUUM
    /// ANALYZE`. The B-tree includes `x`, `y` and `weight`, and the vacuum marks the pages
    /// all-visible, so that a tile reads only the index's entries in its key ranges (an
    /// index-only scan, in key order, so near each other) rather than one heap page a row.
    ///
    /// A sharded table (`sharded`, see PostgresSource+Partitions) has no summaries: its shards
    /// sum the rows, and counting them would bring every row to the coordinator.
    static func finishLoad(
        table: String, quoted: String, names: ObjectNames, fresh: Bool, rows: Int, sharded: Bool = false,
        fields: ImportedFields = .init(), on connection: PostgresConnection
    ) throws(PostgresError) {
        if sharded {
            try connection.execute("COMMIT")
            try connection.execute("ANALYZE \(quoted)")
            return
        }
        let name = try connection.execute(
            """
            SELECT n.nspname || '.' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
            WHERE c.oid = to_regclass($1)
            """, [quoted]
        ).text(0, 0)
        let cells = try PostgresSource.summariesTable(of: table, on: connection)
        // After the copy, whose change count the summaries record.
        let total = try connection.execute("SELECT count(*) FROM \(quoted)").text(0, 0).flatMap { Int($0) } ?? rows
        try CellSummaries.build(
            table: quoted, cells: cells, name: name ?? table, rows: total, prefix: names.prefix, on: connection)
        if !fields.timeSummaries {
            // Time summaries of an earlier import with --time-summaries are read no more.
            try connection.execute("DELETE FROM heatmap_time_summaries WHERE table_name = $1", [name ?? table])
        }
        if let time = fields.timeColumn, fields.timeSummaries {
            try TimeSummaries.build(
                table: quoted, cells: names.quoted("_tcells"), name: name ?? table, time: MadeObject.quoted(time),
                column: time, rows: total, on: connection)
        }
        try ChangeLog.install(table: quoted, name: name ?? table, prefix: names.prefix, on: connection)
        if fresh, let time = fields.timeColumn, fields.timeSummaries {
            // The rows of a window's partial days, which the time summaries leave to the rows: on the
            // time as UTC, which only those statements name (see TimeSummaryUse.rowsCondition).
            try connection.execute(
                "CREATE INDEX \(MadeObject.quoted(names.name("_time"))) ON \(quoted) "
                    + "((\(MadeObject.quoted(time)) AT TIME ZONE 'UTC')) INCLUDE (x, y, key, weight)")
        }
        if fresh {
            // With the copied time and categories, so that a filtered tile is an index-only scan too.
            try connection.execute(fields.keyIndexStatement(MadeObject.quoted(names.name("_key")), on: quoted))
        }
        // What it made, marked as HeatmapKit's (the table itself when it made it).
        let made =
            ImportObjects.perTable(names, quoted: quoted) + (fresh ? [ImportObjects.table(names, quoted: quoted)] : [])
        for object in made { try connection.execute(object.markStatement) }
        try connection.execute("COMMIT")
        try connection.execute("VACUUM (ANALYZE) \(quoted)")
        try connection.execute("ANALYZE \(cells)")
        if fields.timeSummaries { try connection.execute("ANALYZE \(names.quoted("_tcells"))") }
    }

    /// The table `import` makes, and the triggers that fill `x`, `y` and `key` for rows
    /// inserted without them and for rows whose position changes.
    static func createStatements(_ quoted: String, names: ObjectNames, fields: ImportedFields = .init()) -> [String] {
        let extra = fields.definitionsAfterPositions
        return [
            """
            CREATE TABLE \(quoted) (
                lat float8 NOT NULL CHECK (lat BETWEEN -90 AND 90),
                lng float8 NOT NULL CHECK (lng > '-Infinity' AND lng < 'Infinity'),
                weight real NOT NULL DEFAULT 1 CHECK (weight >= 0 AND weight < 'Infinity'),
                x int8, y int8, key int8\(extra)
            )
            """
        ] + positionTriggers(quoted, names: names)
    }

    /// The triggers that fill `x`, `y` and `key` for rows inserted without them and for rows
    /// whose position changes.
    static func positionTriggers(_ quoted: String, names: ObjectNames) -> [String] {
        let q = MadeObject.quoted
        return [
            """
            CREATE TRIGGER \(q(names.name("_position"))) BEFORE INSERT ON \(quoted) FOR EACH ROW
            WHEN (NEW.x IS NULL OR NEW.y IS NULL OR NEW.key IS NULL) EXECUTE FUNCTION heatmap_fill_position()
            """,
            """
            CREATE TRIGGER \(q(names.name("_moved"))) BEFORE UPDATE OF lat, lng, x, y, key ON \(quoted) FOR EACH ROW
            EXECUTE FUNCTION heatmap_fill_position()
            """,
        ]
    }

    /// (Re)makes the position triggers and the change counter's on the table `quoted` appended
    /// to, so that an append puts back what was lost (see ``PostgresSource/missingTriggers()``):
    /// the table's triggers calling those functions go first, whatever their names (an earlier
    /// version's, which a long table name made different).
    static func remakeRowTriggers(_ quoted: String, names: ObjectNames, on connection: PostgresConnection)
        throws(PostgresError)
    {
        let others = try connection.execute(
            """
            SELECT tgname FROM pg_trigger WHERE tgrelid = to_regclass($1) AND NOT tgisinternal \
            AND tgfoid IN (to_regprocedure('heatmap_fill_position()'), to_regprocedure('heatmap_count_change()'))
            """, [quoted])
        for row in 0..<others.rowCount {
            guard let name = others.text(row, 0) else { continue }
            try connection.execute("DROP TRIGGER \(MadeObject.quoted(name)) ON \(quoted)")
        }
        for statement in positionTriggers(quoted, names: names) { try connection.execute(statement) }
        try connection.execute(
            ChangeCounter.triggerStatement(table: quoted, trigger: MadeObject.quoted(names.name("_changes"))))
    }

    /// The trigger function that fills `x`, `y` and `key` from the SQL functions.
    static let fillPositionFunction =
        """
        CREATE OR REPLACE FUNCTION heatmap_fill_position() RETURNS trigger LANGUAGE plpgsql AS $heatmap$
        BEGIN
            NEW.x := heatmap_unit_x(NEW.lng);
            NEW.y := heatmap_unit_y(NEW.lat);
            NEW.key := heatmap_key(NEW.lat, NEW.lng);
            RETURN NEW;
        END $heatmap$
        """
}

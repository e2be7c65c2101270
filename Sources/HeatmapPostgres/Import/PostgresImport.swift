import Foundation
import HeatmapKit

/// Loads points into a table through binary `COPY`: plain `lat`, `lng` and `weight` columns
/// (so that `INSERT INTO t (lat, lng, weight) …` works), the fixed-point `x`, `y` and Morton
/// `key` of the in-memory index (computed here for the rows copied, and by a trigger from the
/// SQL functions of ``PositionSQL`` for rows inserted or moved later), a B-tree on `key`, and
/// a trigger that counts the changes to the rows (see ``PostgresSource/changeCount()``).
public enum PostgresImport {
    /// What to do with a table that exists.
    public enum Mode: Sendable, Hashable {
        /// Refuse it (``PostgresError/tableExists(_:)``).
        case create
        /// Add the rows to it (it must be a table `import` made).
        case append
        /// Drop it and make it afresh, in the same transaction as the load.
        case replace
    }

    /// What was loaded.
    public struct Summary: Sendable, Hashable {
        /// The rows copied.
        public var rows: Int
        /// The time the load took, from connecting to the commit.
        public var duration: Duration

        /// Rows a second.
        public var rowsPerSecond: Double {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            return seconds > 0 ? Double(rows) / seconds : 0
        }
    }

    /// Loads `points` into `table`, in one transaction; `progress` hears the rows sent so far
    /// and the total after each chunk of about 1 MiB.
    ///
    /// - Throws: ``PostgresError``: the table exists (``Mode/create``), is not one `import`
    ///   made (``Mode/append``), or the server refused.
    public static func run(
        points: [WeightedLatLng], into table: String, connection conninfo: ConnectionString, mode: Mode,
        progress: ((_ sent: Int, _ total: Int) -> Void)? = nil
    ) throws(PostgresError) -> Summary {
        let start = ContinuousClock.now
        let connection = try PostgresConnection(conninfo)
        let quoted = PostgresConnection.quoted(identifier: table)
        // What tables share, in a short transaction of its own: concurrent imports of other
        // tables then never wait for each other.
        try PositionSQL.install(
            on: connection,
            extra: ChangeCounter.sharedStatements + [fillPositionFunction, CellSummaries.sharedStatement])
        try connection.execute("BEGIN")
        do throws(PostgresError) {
            let exists = try connection.execute("SELECT to_regclass($1) IS NOT NULL", [quoted]).text(0, 0) == "t"
            var fresh = !exists
            var partitionShift: Int?
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
                partitionShift = layout.partitionShift
            default: break
            }
            if fresh {
                let base = PostgresTable(name: table).baseName
                for statement in createStatements(quoted, base: base) { try connection.execute(statement) }
                let trigger = PostgresConnection.quoted(identifier: base + "_changes")
                try connection.execute(ChangeCounter.triggerStatement(table: quoted, trigger: trigger))
            }
            let rows = try copy(points, into: quoted, on: connection, progress: progress)
            let name = try connection.execute(
                """
                SELECT n.nspname || '.' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
                WHERE c.oid = to_regclass($1)
                """, [quoted]
            ).text(0, 0)
            let cells = PostgresConnection.quoted(identifier: CellSummaries.tableName(for: table))
            // A sharded table has none (see PostgresSource+Partitions): its shards sum the rows.
            if partitionShift == nil {
                // After the copy, whose change count the summaries record.
                let total =
                    try connection.execute("SELECT count(*) FROM \(quoted)").text(0, 0).flatMap { Int($0) } ?? rows
                try CellSummaries.build(table: quoted, cells: cells, name: name ?? table, rows: total, on: connection)
            }
            if fresh {
                let index = PostgresConnection.quoted(identifier: PostgresTable(name: table).baseName + "_key")
                try connection.execute("CREATE INDEX \(index) ON \(quoted) (key)")
            }
            try connection.execute("COMMIT")
            try connection.execute("ANALYZE \(quoted)")
            if partitionShift == nil {
                try connection.execute(
                    "ANALYZE \(PostgresConnection.quoted(identifier: CellSummaries.tableName(for: table)))")
            }
            return Summary(rows: rows, duration: ContinuousClock.now - start)
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The table `import` makes, and the triggers that fill `x`, `y` and `key` for rows
    /// inserted without them and for rows whose position changes.
    static func createStatements(_ quoted: String, base: String) -> [String] {
        let q = PostgresConnection.quoted(identifier:)
        return [
            """
            CREATE TABLE \(quoted) (
                lat float8 NOT NULL CHECK (lat BETWEEN -90 AND 90),
                lng float8 NOT NULL CHECK (lng > '-Infinity' AND lng < 'Infinity'),
                weight real NOT NULL DEFAULT 1 CHECK (weight >= 0 AND weight < 'Infinity'),
                x int8, y int8, key int8
            )
            """,
            """
            CREATE TRIGGER \(q(base + "_position")) BEFORE INSERT ON \(quoted) FOR EACH ROW
            WHEN (NEW.x IS NULL OR NEW.y IS NULL OR NEW.key IS NULL) EXECUTE FUNCTION heatmap_fill_position()
            """,
            """
            CREATE TRIGGER \(q(base + "_moved")) BEFORE UPDATE OF lat, lng, x, y, key ON \(quoted) FOR EACH ROW
            EXECUTE FUNCTION heatmap_fill_position()
            """,
        ]
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

    /// Copies the points in chunks of about 1 MiB; returns the rows the server counted.
    static func copy(
        _ points: [WeightedLatLng], into quoted: String, on connection: PostgresConnection,
        progress: ((Int, Int) -> Void)? = nil
    ) throws(PostgresError) -> Int {
        var next = 0
        var headerSent = false
        var trailerSent = false
        return try connection.copyIn("COPY \(quoted) (lat, lng, weight, x, y, key) FROM STDIN (FORMAT binary)") {
            chunk in
            if !headerSent {
                chunk.append(contentsOf: CopyEncoder.header)
                headerSent = true
            }
            while next < points.count, chunk.count < 1 << 20 {
                let point = points[next]
                let x = UInt64(WebMercator.unitX(longitude: point.coordinate.longitude))
                let y = UInt64(WebMercator.unitY(latitude: point.coordinate.latitude))
                CopyEncoder.append(
                    latitude: point.coordinate.latitude, longitude: point.coordinate.longitude,
                    weight: Float(point.intensity), x: x, y: y, key: KeyRanges.key(x: x, y: y), to: &chunk)
                next += 1
            }
            progress?(next, points.count)
            if next == points.count, !trailerSent {
                chunk.append(contentsOf: CopyEncoder.trailer)
                trailerSent = true
            }
            return !trailerSent
        }
    }
}

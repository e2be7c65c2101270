import HeatmapCore
import HeatmapKit

/// Pixel weights from a PostgreSQL table: for each rectangle a tile (or M(z)'s search) needs,
/// one `SELECT … sum(weight) … GROUP BY pixel` over the rows in it, so that what crosses the
/// connection is bounded by the pixels, never by the rows. Positions are the fixed-point
/// ones of the in-memory index (see ``PositionSQL``), so the tiles are the same.
///
/// ```swift
/// let source = try PostgresSource(connection: ConnectionString("postgresql://localhost/gis"),
///                                 table: PostgresTable(name: "crimes"))
/// let layer = HeatmapTileLayer(source: source)
/// ```
public final class PostgresSource: WeightSource {
    /// The source's failures: the connection's and the table's.
    public typealias Failure = PostgresError

    /// The table as described.
    public let table: PostgresTable
    let layout: TableLayout
    let pool: ConnectionPool
    /// The change count this version of the source stands for (see ``pinned(toChangeCount:)``),
    /// or `nil` when tiles may read any state.
    public let pinnedChangeCount: Int64?
    /// What every version of the source shares: the handler of newer states, test hooks.
    let hooks: SourceHooks
    /// The statement timeout, which bounds a whole tile's snapshot too; `nil` for none.
    let statementTimeout: Duration?

    /// Connects (failing at once if the server is down), checks the table and its columns and
    /// finds how to read it: the columns `import` adds, else positions computed in SQL.
    ///
    /// - Parameter statementTimeout: a query slower than this is cancelled and fails with
    ///   ``PostgresError/timedOut(reason:)``; `nil` for none.
    /// - Throws: ``PostgresError`` for a connection, table or column that is not there.
    public init(connection: ConnectionString, table: PostgresTable, statementTimeout: Duration? = nil)
        throws(PostgresError)
    {
        // Whole milliseconds, at least 1 for a positive timeout, at most a day.
        let seconds = statementTimeout.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
        let milliseconds = seconds.map { Int(min(max(($0 * 1000).rounded(.up), 0), 86_400_000)) } ?? 0
        pool = ConnectionPool(conninfo: connection, statementTimeoutMilliseconds: milliseconds)
        self.table = table
        pinnedChangeCount = nil
        hooks = SourceHooks()
        self.statementTimeout = milliseconds > 0 ? .milliseconds(milliseconds) : nil
        layout = try pool.with { (connection) throws(PostgresError) in
            try Self.layout(of: table, on: connection)
        }
        if let condition = layout.rowCondition { pool.addSetup(condition.create) }
        // A filter's values then reach the shards as parameters, never in a statement's text.
        if layout.partitionShift != nil { pool.shipBoundValues() }
    }

    /// A version of `source` (the same pool, table and hooks) standing for `pinnedChangeCount`,
    /// reading `layout` instead of the source's when given (the mean's channels).
    init(copying source: PostgresSource, pinnedChangeCount: Int64?, layout: TableLayout? = nil) {
        table = source.table
        self.layout = layout ?? source.layout
        pool = source.pool
        hooks = source.hooks
        statementTimeout = source.statementTimeout
        self.pinnedChangeCount = pinnedChangeCount
    }

    /// Whether the table is one `import` made, with the key columns fast tiles need.
    package var isImported: Bool { layout.imported }

    /// For a plain table whose positions no index covers, the statement that would make its
    /// tiles fast (each tile reads the whole table without it); `nil` otherwise.
    package var suggestedIndex: String? { layout.keyIndexed ? nil : layout.suggestedIndex }

    /// Adds the weight of each occupied pixel of `query`: the rows in its rectangle, summed
    /// per pixel in the database.
    package func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) throws(PostgresError) {
        let (sql, parameters) = statement(for: query)
        let result = try pool.with { (connection) throws(PostgresError) in
            try connection.executePrepared(sql, parameters, binary: true)
        }
        try Self.add(result, into: &sink)
    }

    /// Adds the rows of a pixel-weight statement's result to `sink`.
    static func add(_ result: PostgresResult, into sink: inout PixelWeightSink) throws(PostgresError) {
        for row in 0..<result.rowCount {
            guard let (column, line, weight) = result.cell(row) else {
                throw .invalidAnswer("a pixel's position or weight is missing")
            }
            guard sink.add(column: Int(column), row: Int(line), weight: weight) else {
                throw .invalidAnswer(
                    "pixel \(column), \(line) of weight \(weight) is outside the query or not a finite weight ≥ 0")
            }
        }
    }

    /// The statement and its parameters for a query's pixel weights.
    func statement(for query: WeightQuery) -> (String, [String?]) {
        statement(space: query.space, columns: query.columns, rows: query.rows)
    }

    /// The statement and its parameters for the pixel weights of `columns` × `rows` (inside
    /// the world) at `space`: from the summaries while they hold the pixels' level, else the rows.
    func statement(space: PixelSpace, columns: Range<Int>, rows pixelRows: Range<Int>) -> (String, [String?]) {
        if let sharded = shardSummaryStatement(space: space, columns: columns, rows: pixelRows) { return sharded }
        if let timed = timeSummaryStatement(space: space, columns: columns, rows: pixelRows) { return timed }
        let units = (
            space.firstUnit(ofPixel: columns.lowerBound)..<space.firstUnit(ofPixel: columns.upperBound),
            space.firstUnit(ofPixel: pixelRows.lowerBound)..<space.firstUnit(ofPixel: pixelRows.upperBound)
        )
        guard let cells = layout.summaries, layout.filter == nil, let level = space.pixelLevel,
            CellSummaries.levels.contains(level)
        else { return rowStatement(units: units, space: space) }
        // The summaries while they hold the current rows, else the rows: one statement, one snapshot
        // (the rows' statement has six parameters before these two).
        var first = [String?](repeating: nil, count: 6)
        let (fresh, stale) = summariesHold(level: level, parameters: &first)
        let rows = rowStatement(units: units, space: space, firstParameters: Array(first[6...]), condition: stale)
        var parameters = rows.1
        parameters += [
            "\(columns.lowerBound)", "\(columns.upperBound)", "\(pixelRows.lowerBound)",
            "\(pixelRows.upperBound)",
        ]
        let n = parameters.count
        var conditions = [
            fresh, "level = $8::int2", "x >= $\(n - 3)::int8", "x < $\(n - 2)::int8", "y >= $\(n - 1)::int8",
            "y < $\(n)::int8",
        ]
        // The key ranges as two arrays, one B-tree scan each: the statement's text is the same
        // for every tile, so that its prepared plan is reused.
        let covering = KeyRanges.covering(
            columns: UInt64(columns.lowerBound)..<UInt64(columns.upperBound),
            rows: UInt64(pixelRows.lowerBound)..<UInt64(pixelRows.upperBound))
        parameters.append("{" + covering.map { "\($0.lowerBound)" }.joined(separator: ",") + "}")
        parameters.append("{" + covering.map { "\($0.upperBound)" }.joined(separator: ",") + "}")
        conditions.append("key BETWEEN k.low AND k.high")
        let sql =
            "SELECT c.* FROM unnest($\(parameters.count - 1)::int8[], $\(parameters.count)::int8[]) AS k(low, high) "
            + "CROSS JOIN LATERAL (SELECT x, y, weight FROM \(cells) WHERE \(conditions.joined(separator: " AND ")) "
            + "OFFSET 0) c UNION ALL \(rows.0)"
        return (sql, parameters)
    }

    /// The statement over the rows for a query's pixel weights; `firstParameters` come after
    /// the six of the rectangle, and `condition` is one more on the rows.
    func rowStatement(for query: WeightQuery, firstParameters: [String?] = [], condition: String? = nil)
        -> (String, [String?])
    {
        rowStatement(
            units: (query.unitColumns, query.unitRows), space: query.space, firstParameters: firstParameters,
            condition: condition)
    }

    /// The statement over the rows for the pixel weights of the units `columns` × `rows`
    /// (inside the world) at `space`, as ``rowStatement(for:firstParameters:condition:)``.
    func rowStatement(
        units: (Range<UInt64>, Range<UInt64>), space: PixelSpace, firstParameters: [String?] = [],
        condition: String? = nil
    ) -> (String, [String?]) {
        let shift = 24 - space.zoom
        var parameters: [String?] =
            [
                "\(space.scale)", "\(shift)", "\(units.0.lowerBound)", "\(units.0.upperBound)",
                "\(units.1.lowerBound)", "\(units.1.upperBound)",
            ] + firstParameters
        var conditions = [
            "\(layout.x) >= $3::int8", "\(layout.x) < $4::int8", "\(layout.y) >= $5::int8",
            "\(layout.y) < $6::int8", "\(layout.weight) > 0::float8", "\(layout.weight) < 'Infinity'::float8",
        ]
        if let shift = layout.partitionShift {
            return shardedStatement(
                units: units, shift: shift, parameters: parameters, conditions: conditions, condition: condition)
        }
        var ranges: Int?
        if layout.keyIndexed {
            let covering = KeyRanges.decomposed(columns: units.0, rows: units.1)
            parameters.append("{" + covering.map { "\($0.lowerBound)" }.joined(separator: ",") + "}")
            parameters.append("{" + covering.map { "\($0.upperBound)" }.joined(separator: ",") + "}")
            ranges = parameters.count - 1
        }
        if let filter = layout.filter { conditions.append("(\(filter))") }
        if let condition { conditions.append(condition) }
        return (rangeScan(ranges: ranges, conditions: conditions), parameters)
    }

    /// How to read `table`: its columns, whether an index covers the key, and its row
    /// condition's function (made on `connection`, see ``SQLCondition``).
    static func layout(of table: PostgresTable, on connection: PostgresConnection) throws(PostgresError)
        -> TableLayout
    {
        var layout = try columnLayout(of: table, on: connection)
        layout.rowCondition = try SQLCondition.function(for: table.filter, table: layout.table, on: connection)
        layout.filter = layout.rowCondition?.call
        try addFilterColumns(of: table, to: &layout, on: connection)
        return layout
    }

    /// The quoted summaries' table of `table` (see ``ObjectNames``): `T_cells`, or for a table
    /// of a long name imported before the names were shortened, the name of then when only it exists.
    static func summariesTable(of table: String, on connection: PostgresConnection) throws(PostgresError) -> String {
        let names = ObjectNames(table: table, encoding: connection.serverEncoding)
        let cells = names.quoted("_cells")
        guard names.isShortened else { return cells }
        // The name of then, cut by PostgreSQL, may be the table's own (`T_cells` cut to 63 bytes).
        let legacy = names.legacy("_cells")
        let found = try connection.execute(
            """
            SELECT to_regclass($1) IS NULL AND to_regclass($2) IS NOT NULL \
            AND to_regclass($2) IS DISTINCT FROM to_regclass($3) \
            AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($2) AND attname = 'level')
            """, [cells, legacy, PostgresConnection.quoted(identifier: table)])
        return found.text(0, 0) == "t" ? legacy : cells
    }

    /// How to read `table` without its row condition: its columns, and whether an index covers the key.
    static func columnLayout(of table: PostgresTable, on connection: PostgresConnection) throws(PostgresError)
        -> TableLayout
    {
        let quoted = PostgresConnection.quoted(identifier: table.name)
        let columns = try connection.execute(
            """
            SELECT attname FROM pg_attribute WHERE attrelid = to_regclass($1) AND attnum > 0 AND NOT attisdropped
            """, [quoted])
        let names = Set((0..<columns.rowCount).compactMap { columns.text($0, 0) })
        guard !names.isEmpty else { throw .tableMissing(table.name) }
        let positionColumns = table.geometryColumn.map { [$0] } ?? [table.latitudeColumn, table.longitudeColumn]
        for column in positionColumns + [table.weightColumn].compactMap({ $0 }) where !names.contains(column) {
            throw .columnMissing(table: table.name, column: column)
        }
        let q = PostgresConnection.quoted(identifier:)
        let weightColumn = table.weightColumn ?? (names.contains("weight") ? "weight" : nil)
        let weight = weightColumn.map { "\(q($0))::float8" } ?? "1::float8"
        if let geometry = table.geometryColumn {
            return try geometryLayout(of: table, column: geometry, weight: weight, on: connection)
        }
        if table.latitudeColumn == "lat", table.longitudeColumn == "lng", names.isSuperset(of: ["x", "y", "key"]) {
            let cells = try summariesTable(of: table.name, on: connection)
            let found = try connection.execute(
                """
                SELECT n.nspname || '.' || c.relname, to_regclass($2) IS NOT NULL \
                AND to_regclass('heatmap_summaries') IS NOT NULL AND to_regclass('heatmap_versions') IS NOT NULL \
                FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass($1)
                """, [quoted, cells])
            var layout = TableLayout(
                table: quoted, x: "x", y: "y", key: "key", weight: weight, latitude: "lat", longitude: "lng",
                keyIndexed: true, imported: true, filter: nil)
            layout.qualifiedName = found.text(0, 0) ?? table.name
            layout.partitionShift = try partitionShift(of: quoted, on: connection)
            if layout.partitionShift != nil, weightColumn == "weight", table.filter == nil {
                layout.shardCells = try shardSummaries(cells: cells, name: layout.qualifiedName, on: connection)
            }
            // Summaries hold the weight column: only for it; a sharded table has none.
            if found.text(0, 1) == "t", weightColumn == "weight", layout.partitionShift == nil {
                layout.summaries = cells
                if let time = table.timeColumn {
                    let names = ObjectNames(table: table.name, encoding: connection.serverEncoding)
                    layout.timeState = try TimeSummaryState.read(
                        name: layout.qualifiedName, column: time, cells: names.quoted("_tcells"), on: connection)
                }
            }
            return layout
        }
        try PositionSQL.install(on: connection)
        let lat = "\(q(table.latitudeColumn))::float8"
        let lng = "\(q(table.longitudeColumn))::float8"
        let indexes = try connection.execute(
            """
            SELECT count(*) FROM pg_index WHERE indrelid = to_regclass($1) \
            AND pg_get_indexdef(indexrelid) LIKE '%heatmap_key(%'
            """, [quoted])
        return TableLayout(
            table: quoted, x: "heatmap_unit_x(\(lng))", y: "heatmap_unit_y(\(lat))", key: "heatmap_key(\(lat), \(lng))",
            weight: PositionSQL.weight(weight, latitude: lat, longitude: lng), latitude: lat, longitude: lng,
            keyIndexed: (indexes.text(0, 0) ?? "0") != "0",
            imported: false, filter: nil)
    }
}

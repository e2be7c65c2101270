/// Which table to draw and how its rows are points.
public struct PostgresTable: Sendable, Hashable {
    /// The table's name, `schema.table` or `table`, quoted as an identifier.
    public var name: String
    /// The latitude column (degrees); default `lat`.
    public var latitudeColumn: String
    /// The longitude column (degrees); default `lng`.
    public var longitudeColumn: String
    /// The weight column, or `nil` for every row weighing 1 (default `weight` when the table has it).
    public var weightColumn: String?
    /// A condition on the rows, raw SQL (the one place raw SQL goes; give it only trusted
    /// text): the body of a function of the row that every query's `WHERE` calls, where it
    /// cannot reach the query's own conditions (see ``RowCondition``); it names the columns bare.
    public var filter: String?
    /// A PostGIS point geometry column in EPSG:4326 to read positions from instead of the
    /// latitude and longitude columns; `nil` (default) for those.
    public var geometryColumn: String?
    /// The column of each row's time, for time windows: `timestamptz`, `timestamp` (read as
    /// UTC), `date` (its midnight in UTC) or a number of Unix seconds; `nil` (default) for none.
    public var timeColumn: String? = nil
    /// The columns of each row's categories, for category filters: text or integer columns;
    /// empty (default) for none.
    public var categoryColumns: [String] = []

    /// Describes a table; `weightColumn: nil` looks for a `weight` column.
    public init(
        name: String, latitudeColumn: String = "lat", longitudeColumn: String = "lng", weightColumn: String? = nil,
        filter: String? = nil, geometryColumn: String? = nil
    ) {
        self.name = name
        self.latitudeColumn = latitudeColumn
        self.longitudeColumn = longitudeColumn
        self.weightColumn = weightColumn
        self.filter = filter
        self.geometryColumn = geometryColumn
    }

    /// The table's name without its schema, for a layer's name.
    package var baseName: String { String(name.split(separator: ".").last ?? Substring(name)) }
}

/// How the source reads positions and weights from a table, found when it connects.
struct TableLayout: Sendable, Hashable {
    /// The quoted table name.
    var table: String
    /// SQL for the unit x, unit y, Morton key and weight of a row.
    var x: String
    var y: String
    var key: String
    var weight: String
    /// SQL for the latitude and longitude in degrees.
    var latitude: String
    var longitude: String
    /// Whether the key can be searched by an index (a column `import` made, or an index on
    /// the expression), so that a query names key ranges.
    var keyIndexed: Bool
    /// Whether the table is one `import` made (x, y and key columns).
    var imported: Bool
    /// SQL for the user's condition on a row (its function's call, see ``RowCondition``; the
    /// mean adds a condition of its own), or `nil`.
    var filter: String?
    /// The function of the user's condition, which every connection makes first; `nil` without.
    var rowCondition: RowCondition?
    /// The quoted table of cell summaries (see ``CellSummaries``), or `nil`.
    var summaries: String?
    /// The table's `schema.name`, as the change count knows it.
    var qualifiedName: String = ""
    /// The `N` of a table partitioned by `RANGE ((key >> N))` (sharded, see
    /// `PostgresSource+Partitions.swift`), or `nil`.
    var partitionShift: Int?
    /// A sharded table's summaries on its shards, through the coordinator, and their finest
    /// level (see `ShardSummaries`), or `nil`.
    var shardCells: ShardCells?
    /// The quoted geometry column positions come from, or `nil` for latitude and longitude columns.
    var geometry: String?
    /// The `--time` column as the catalog describes it, or `nil`.
    var time: FilterColumn?
    /// The `--categories` columns as the catalog describes them.
    var categories: [FilterColumn] = []
    /// The time summaries of the `--time` column (see ``TimeSummaries``), or `nil`.
    var timeState: TimeSummaryState?
    /// A filtered source's window read through the time summaries, or `nil`.
    var timeSummaries: TimeSummaryUse?

    /// The statement that would make tiles of a plain table fast.
    var suggestedIndex: String { "CREATE INDEX ON \(table) (\(key));" }
}

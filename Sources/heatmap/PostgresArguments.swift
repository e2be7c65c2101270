import Foundation
import HeatmapKit
import HeatmapPostgres

/// `--postgres URL --table T [--lat COL --lng COL | --geometry COL] [--weight COL] [--where SQL]`: a table in
/// place of DATA for `tile`, `info`, `image`, `render` and `serve`.
enum PostgresArguments {
    static let valued: Set<String> = ["postgres", "table", "where", "geometry", "layer-name", "statement-timeout"]
    static let help = """
          --postgres URL     read the points from PostgreSQL instead of DATA: a postgresql:// URL or
                             key=value string ("" for libpq's PG* variables and .pgpass)
          --table T          the table (schema.table too); --lat, --lng and --weight name its columns
                             (default lat, lng and weight if present, else every row weighs 1)
          --geometry COL     positions from this PostGIS point geometry in EPSG:4326 instead of --lat, --lng
          --where SQL        only the rows matching this raw SQL condition (trusted text only)
          (--time COL and --categories COL,... name the table's time column, timestamptz, timestamp,
          date or Unix seconds, and its text or integer category columns, for --datetime and --category)
        """

    /// The table the options name, or `nil` without `--postgres`.
    static func table(_ list: ArgumentList) throws(CommandError) -> (ConnectionString, PostgresTable)? {
        guard let url = list.text("postgres") else {
            for name in ["table", "where", "geometry", "statement-timeout"] where list.text(name) != nil {
                throw .usage("--\(name) goes with --postgres URL")
            }
            return nil
        }
        guard let name = list.text("table"), !name.isEmpty else { throw .usage("--postgres needs --table T") }
        let geometry = list.text("geometry")
        if geometry != nil, list.text("lat") != nil || list.text("lng") != nil {
            throw .usage("--geometry gives the positions: leave out --lat and --lng")
        }
        if geometry?.isEmpty == true { throw .usage("--geometry needs a column name") }
        var table = PostgresTable(
            name: name, latitudeColumn: list.text("lat") ?? "lat", longitudeColumn: list.text("lng") ?? "lng",
            weightColumn: list.text("weight"), filter: list.text("where"), geometryColumn: geometry)
        // --time and --categories name the table's columns, checked as the readers check them.
        let options = try DataArguments.options(list)
        table.timeColumn = options.timeColumn
        table.categoryColumns = options.categoryColumns
        return (ConnectionString(url), table)
    }

    /// Connects to the table, saying once on standard error which index would make a plain
    /// table fast.
    static func source(_ connection: ConnectionString, _ table: PostgresTable, statementTimeout: Duration? = nil)
        throws(CommandError) -> PostgresSource
    {
        let source: PostgresSource
        do {
            source = try PostgresSource(connection: connection, table: table, statementTimeout: statementTimeout)
        } catch {
            throw CommandError(error.description)
        }
        if source.suggestedIndex != nil, (try? source.isView()) == true {
            StandardStreams.error(
                "heatmap: \(table.name) is a view, which takes no index, so every tile reads all the rows it "
                    + "selects; for fast tiles, import them (heatmap import) or draw from a table with the index\n")
        } else if let statement = source.suggestedIndex {
            StandardStreams.error(
                "heatmap: table \(table.name) has no index on its positions, so every tile reads the whole "
                    + "table; this makes tiles fast:\n    \(statement)\n")
        }
        return source
    }

    /// The filters of `source` (its time range and category values read now), or `nil` when
    /// the table was given no `--time` or `--categories`.
    static func filters(_ source: PostgresSource) throws(CommandError) -> PostgresFilters? {
        guard source.table.timeColumn != nil || !source.table.categoryColumns.isEmpty else { return nil }
        do {
            return try PostgresFilters(source: source)
        } catch {
            throw CommandError(error.description)
        }
    }

    /// Refuses with `--postgres` the options that read a file.
    static func refuseFileOptions(_ list: ArgumentList) throws(CommandError) {
        if list.text("data-format") != nil {
            throw .usage(
                "--data-format reads a file: with --postgres the table's columns are --lat, --lng, --weight or --geometry"
            )
        }
        if list.flag("skip-invalid") {
            throw .usage(
                "--skip-invalid reads a file: with --postgres, rows with an unusable position or weight draw nothing "
                    + "(heatmap info --postgres counts them)")
        }
    }
}

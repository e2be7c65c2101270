import Foundation
import HeatmapKit
import HeatmapPostgres

/// `heatmap import DATA --postgres URL --table T [--append|--replace] [data options]`: loads
/// points into a table that tiles can be drawn from.
struct ImportCommand {
    static let usage = """
        usage: heatmap import DATA --postgres URL --table T [--append | --replace] [--shard URL ...]
                              [--data-format F] [--lat COL] [--lng COL] [--weight COL] [--skip-invalid]
                              [--time COL [--time-summaries]] [--categories COL[,COL...]]
               heatmap import --postgres URL --table T --attach
          DATA               points: JSON, CSV, TSV, GeoJSON or NDJSON, gzip too; - for standard input
          --postgres URL     a postgresql:// URL or key=value string ("" for libpq's PG* variables)
          --table T          the table to make: lat, lng and weight columns, the x, y and
                             key columns fast tiles need (kept by triggers), a B-tree on key, summaries;
                             with --time and --categories also those columns, named as in DATA
                             (timestamptz and text), so the table takes --datetime and --category
          --time-summaries   with --time, also sum the rows per day (and 8, 64, 512 days) and coarse
                             cell into T_tcells, so that time-filtered M(z) and coarse tiles read
                             them rather than the rows; costs import time and space (see
                             docs/guides/postgresql.md#time-summaries)
          --append           add the rows to a table import made before
          --replace          drop the table and make it afresh (in one transaction with the load)
        \(shardUsage)
        \(attachUsage)
        \(DataArguments.help)
        An existing table is refused without --append or --replace.
        """

    var dataPath: String
    var connection: ConnectionString
    var table: String
    var mode: PostgresImport.Mode
    var options: PointReadOptions
    /// `--time-summaries`: sums per time bucket beside the rows (only with `--time`).
    var timeSummaries = false
    var shards: [String]
    /// `--attach`: no DATA, the change log put on a table sharded by hand.
    var attach = false

    init(_ arguments: [String]) throws(CommandError) {
        let split = try Self.shards(in: arguments)
        shards = split.shards
        let list = try ArgumentList(
            split.rest, valued: DataArguments.valued.union(["postgres", "table"]),
            flags: DataArguments.flags.union(["append", "replace", "attach", "time-summaries"]))
        attach = list.flag("attach")
        try Self.checkAttach(list, shards: shards)
        guard list.positionals.count == 1 || attach else {
            throw .usage("import needs DATA, got \(list.positionals.count) arguments\n\(Self.usage)")
        }
        dataPath = list.positionals.first ?? ""
        guard let url = list.text("postgres") else { throw .usage("import needs --postgres URL\n\(Self.usage)") }
        guard let table = list.text("table"), !table.isEmpty else { throw .usage("import needs --table T") }
        connection = ConnectionString(url)
        self.table = table
        switch (list.flag("append"), list.flag("replace")) {
        case (true, true): throw .usage("--append and --replace exclude each other")
        case (true, false): mode = .append
        case (false, true): mode = .replace
        case (false, false): mode = .create
        }
        options = try DataArguments.options(list)
        timeSummaries = list.flag("time-summaries")
        if timeSummaries, options.timeColumn == nil {
            throw .usage("--time-summaries sums the rows per time bucket: it needs --time COL")
        }
        if mode == .append, !shards.isEmpty {
            throw .usage("--append adds rows through the coordinator: leave out --shard")
        }
        if !shards.isEmpty, timeSummaries {
            throw .usage(
                "--time-summaries sums the rows per time bucket on one server, not over --shard: import without "
                    + "--time-summaries (a window then reads the shards' rows) or without --shard")
        }
    }

    func run() throws(CommandError) {
        if attach { return try runAttach() }
        let summary: PostgresImport.Summary
        // Streaming: a chunk read, sent, then the next. Progress on a terminal only, a line
        // rewritten about once a second.
        let terminal = isatty(STDERR_FILENO) != 0
        var shown = ContinuousClock.now
        var showing = false
        do {
            if shards.isEmpty {
                let loaded = try PostgresImport.run(
                    path: dataPath, options: options, into: table, connection: connection, mode: mode,
                    timeSummaries: timeSummaries
                ) { sent in
                    guard terminal, ContinuousClock.now - shown >= .seconds(1) else { return }
                    shown = ContinuousClock.now
                    showing = true
                    StandardStreams.error("\rheatmap: copied \(sent) rows")
                }
                if showing { StandardStreams.error("\n") }
                summary = loaded.summary
                if let skipped = loaded.report.skipSummary {
                    StandardStreams.error("heatmap: \(skipped)\n")
                }
                if let long = loaded.report.longRowSummary { StandardStreams.error("heatmap: \(long)\n") }
            } else {
                // Over shards: a first read places the shards' cuts, the second streams the rows.
                let loaded = try runSharded { sent, total in
                    guard terminal, ContinuousClock.now - shown >= .seconds(1) || sent == total else { return }
                    shown = ContinuousClock.now
                    showing = true
                    StandardStreams.error("\rheatmap: copied \(sent) of \(total) rows")
                }
                if showing { StandardStreams.error("\n") }
                summary = loaded.summary
                if let skipped = loaded.report.skipSummary {
                    StandardStreams.error("heatmap: \(skipped)\n")
                }
                if let long = loaded.report.longRowSummary { StandardStreams.error("heatmap: \(long)\n") }
            }
        } catch {
            if showing { StandardStreams.error("\n") }
            throw CommandError(String(describing: error))
        }
        let seconds =
            Double(summary.duration.components.seconds) + Double(summary.duration.components.attoseconds) / 1e18
        let rate = summary.rowsPerSecond.isFinite ? Int(min(summary.rowsPerSecond, 1e15).rounded()) : 0
        let over = shards.isEmpty ? "" : " over \(shards.count) shards"
        print(
            "heatmap: imported \(summary.rows) rows into \(table)\(over) in \(String(format: "%.2f", seconds)) s "
                + "(\(rate) rows/s)")
    }
}

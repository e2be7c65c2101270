import HeatmapKit
import HeatmapPostgres

/// `import … --shard URL [--shard URL …]`: the table sharded over those servers, through the
/// `--postgres` server as coordinator (see `PostgresShardedImport`).
extension ImportCommand {
    static let shardUsage = """
          --shard URL        a shard's server (repeat for each): the rows go to the shards by
                             Z-order cell, and --postgres's table is partitioned over them
                             (with --time and --categories on every server; not --time-summaries)
        """

    /// The `--shard URL` (or `--shard=URL`) values, and the other arguments.
    static func shards(in arguments: [String]) throws(CommandError) -> (shards: [String], rest: [String]) {
        var shards: [String] = []
        var rest: [String] = []
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            if argument == "--shard" {
                guard i + 1 < arguments.count else { throw .usage("--shard needs a connection string") }
                shards.append(arguments[i + 1])
                i += 2
                continue
            }
            if argument.hasPrefix("--shard=") {
                shards.append(String(argument.dropFirst("--shard=".count)))
            } else {
                rest.append(argument)
            }
            i += 1
        }
        return (shards, rest)
    }

    /// Loads the file over the shards (create or replace only).
    func runSharded(progress: @escaping (Int, Int) -> Void) throws(PostgresImportError)
        -> (summary: PostgresImport.Summary, report: PointFileReport)
    {
        try PostgresShardedImport.run(
            path: dataPath, options: options, into: table, coordinator: connection,
            shards: shards.map(ConnectionString.init), mode: mode, timeSummaries: timeSummaries, progress: progress)
    }
}

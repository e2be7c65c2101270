import HeatmapPostgres

/// `import --postgres URL --table T --attach`: the change log of `import --shard` put on a
/// table sharded by hand (see ``PostgresAttach``).
extension ImportCommand {
    static let attachUsage = """
          --attach           no DATA: give T, partitioned by hand over postgres_fdw foreign
                             tables, the change log import --shard makes (triggers on each
                             shard's table and on T), so serve follows its changes, the shards' too
        """

    /// Refuses `--attach` with DATA, `--shard`, `--append` or `--replace`.
    static func checkAttach(_ list: ArgumentList, shards: [String]) throws(CommandError) {
        guard list.flag("attach") else { return }
        if !list.positionals.isEmpty {
            throw .usage("--attach takes no DATA: it changes no rows, it puts the change log on --table T")
        }
        if !shards.isEmpty {
            throw .usage("--attach reads the shards from T's foreign partitions: leave out --shard")
        }
        if list.flag("append") || list.flag("replace") {
            throw .usage("--attach changes no rows: leave out --append and --replace")
        }
    }

    /// Attaches the log and says what it did.
    func runAttach() throws(CommandError) {
        let summary: PostgresAttach.Summary
        do {
            summary = try PostgresAttach.run(table: table, connection: connection)
        } catch {
            throw CommandError(error.description)
        }
        print(
            "heatmap: attached the change log to \(table): \(summary.shards) shards logged, "
                + "change count \(summary.changeCount)")
    }
}

import HeatmapCore
import HeatmapKit

/// A sharded import under way (``PostgresShardedImport``): the coordinator's connection and an
/// open ``ShardCopy`` a shard, rows routed to their shard's `COPY` by the key's prefix as they
/// come (``append(_:)``), so memory stays bounded by the shards' send buffers whatever the
/// number of rows; ``finish()`` ends the copies and commits.
///
/// **The commit.** When every shard allows prepared transactions (`max_prepared_transactions`
/// > 0), it is a two-phase commit: each shard's transaction is prepared (`PREPARE
/// TRANSACTION`), the coordinator's tables are made and committed, then every shard's is
/// committed (`COMMIT PREPARED`). A failure before the coordinator's commit rolls every shard
/// back (`ROLLBACK PREPARED`): nothing is left. Only a shard lost between the coordinator's
/// commit and its own `COMMIT PREPARED` keeps a prepared transaction, with its rows, which the
/// error names with the command that commits it. Otherwise each shard commits before the
/// coordinator's tables are made, one after the other: a failure after some have committed
/// leaves their tables behind (`--replace` drops them), and the error says which.
final class ShardedLoad {
    private let table: String
    private let coordinator: PostgresConnection
    /// The names derived from the table's on the coordinator (see ``ObjectNames``).
    private let names: ObjectNames
    private let shards: [ConnectionString]
    private let layout: ShardLayout
    private let mode: PostgresImport.Mode
    /// The time and category columns copied beside the positions, on every server.
    private let fields: ImportedFields
    /// Whether to commit in two phases when every shard allows it.
    private let twoPhase: Bool
    private var copies: [ShardCopy]
    private var open = true
    /// The rows routed so far.
    private(set) var rowsSent = 0

    /// Connects to the coordinator and every shard and checks, before anything is written on
    /// any, every name the load makes there (see ``ImportObjects``: one that exists and was not
    /// made by HeatmapKit is refused, and ``PostgresImport/Mode/create`` finds the table on no
    /// server, ``PostgresImport/Mode/replace`` only HeatmapKit's); then installs what tables
    /// share on the coordinator and opens each shard's `COPY`, of the columns of `fields` too
    /// (time summaries are refused: the shards keep none). `twoPhase: false` commits each shard
    /// before the coordinator even where they allow prepared transactions (for the tests of
    /// that path).
    init(
        table: String, coordinator: ConnectionString, shards: [ConnectionString], layout: ShardLayout,
        mode: PostgresImport.Mode, fields: ImportedFields = .init(), twoPhase: Bool = true
    ) throws(PostgresError) {
        try Self.check(fields, table: table)
        self.table = table
        self.fields = fields
        self.twoPhase = twoPhase
        self.shards = shards
        self.layout = layout
        self.mode = mode
        let connection = try PostgresConnection(coordinator)
        // The shards' passwords go into the coordinator's user mappings: never in its messages.
        connection.addSecrets(shards.flatMap(\.secrets))
        self.coordinator = connection
        let quoted = PostgresConnection.quoted(identifier: table)
        let names = ObjectNames(table: table, encoding: connection.serverEncoding)
        self.names = names
        // Every server's names first, so that a refusal leaves nothing behind.
        try ObjectNames.check(table, on: connection)
        if mode == .create, try PostgresShardedImport.exists(quoted, on: connection) { throw .tableExists(table) }
        try MadeObject.check(
            Self.coordinatorObjects(
                table: table, names: names, shards: shards.count, mode: mode,
                encoding: connection.serverEncoding), on: connection)
        var shardConnections: [PostgresConnection] = []
        for shard in shards {
            let shardConnection = try PostgresConnection(shard)
            try ObjectNames.check(table, on: shardConnection)
            if mode == .create, try PostgresShardedImport.exists(quoted, on: shardConnection) {
                throw .tableExists("\(table) (on shard \(shard))")
            }
            let shardNames = ObjectNames(table: table, encoding: shardConnection.serverEncoding)
            do throws(PostgresError) {
                try MadeObject.check(
                    ShardCopy.objects(names: shardNames, quoted: quoted, mode: mode), on: shardConnection)
            } catch .notMadeByHeatmapKit(let kind, let name, let found) {
                throw .notMadeByHeatmapKit(kind: kind, name: "\(name) (on shard \(shard))", found: found)
            }
            shardConnections.append(shardConnection)
        }
        try PositionSQL.install(
            on: connection,
            extra: ChangeCounter.sharedStatements + [
                PostgresImport.fillPositionFunction, CellSummaries.sharedStatement, MaximumStore.createStatement,
                "CREATE EXTENSION IF NOT EXISTS postgres_fdw",
            ] + ChangeLog.sharedStatements + [ChangeLog.function, LiveSummaries.function],
            objects: ImportObjects.shared)
        // A megabyte of COPY data in flight over all shards together.
        let sendSize = (1 << 20) / max(1, shards.count)
        var copies: [ShardCopy] = []
        for (shard, shardConnection) in zip(shards, shardConnections) {
            // On a failure, the copies opened so far roll back as they go away.
            copies.append(
                try ShardCopy(
                    connection: shardConnection, shard: shard, table: table, mode: mode, fields: fields,
                    sendSize: sendSize))
        }
        self.copies = copies
    }

    /// Refuses `fields` a sharded table cannot copy: a name of the positions' columns or one
    /// given twice, and time summaries, which the shards do not keep.
    ///
    /// - Throws: ``PostgresError/filterColumnUnusable(table:column:reason:)``.
    static func check(_ fields: ImportedFields, table: String) throws(PostgresError) {
        try fields.checkNames(table: table)
        guard fields.timeSummaries else { return }
        throw .filterColumnUnusable(
            table: table, column: fields.timeColumn ?? "",
            reason: "time summaries are kept on one server, not over shards: import without --time-summaries "
                + "(a window then reads the shards' rows)")
    }

    /// The coordinator's objects (see ``ImportObjects``), the table itself under
    /// ``PostgresImport/Mode/replace``.
    static func coordinatorObjects(
        table: String, names: ObjectNames, shards: Int, mode: PostgresImport.Mode, encoding: ServerEncoding
    ) -> [MadeObject] {
        let quoted = PostgresConnection.quoted(identifier: table)
        return ImportObjects.shared + ImportObjects.gathering
            + ImportObjects.coordinator(names, quoted: quoted, table: table, shards: shards, encoding: encoding)
            + (mode == .replace ? [ImportObjects.table(names, quoted: quoted)] : [])
    }

    deinit {
        rollback(reason: "import stopped")
    }

    /// Routes `points` to their shards' `COPY` (encoded with the fixed-point position and key
    /// the index gives them, weights as `real`), with each point's time and categories of
    /// `values` when the load copies those columns.
    ///
    /// - Throws: ``PostgresError`` (every shard is then rolled back), also when `values` lack a
    ///   point's time or categories.
    func append(_ points: some Collection<WeightedLatLng>, values: PointChunkFields? = nil) throws(PostgresError) {
        guard open else { throw .invalidAnswer("the import of \(table) was already finished or cancelled") }
        do throws(PostgresError) {
            try fields.check(values, count: points.count)
            for (i, point) in points.enumerated() {
                let x = UInt64(WebMercator.unitX(longitude: point.coordinate.longitude))
                let y = UInt64(WebMercator.unitY(latitude: point.coordinate.latitude))
                let key = KeyRanges.key(x: x, y: y)
                try copies[layout.shard(of: Int64(bitPattern: key))].append(
                    latitude: point.coordinate.latitude, longitude: point.coordinate.longitude,
                    weight: Float(point.intensity), x: x, y: y, key: key, values: values, at: i)
            }
            rowsSent += points.count
        } catch {
            rollback(reason: "import stopped")
            throw error
        }
    }

    /// Ends every shard's `COPY`, makes the coordinator's tables and commits (see the type's
    /// note on the commit); returns the rows the shards copied.
    func finish() throws(PostgresError) -> Int {
        guard open else { throw .invalidAnswer("the import of \(table) was already finished or cancelled") }
        open = false
        let twoPhase = twoPhase && copies.allSatisfy(\.canPrepare)
        // A prepared transaction's name holds at most 199 bytes: the table's hash, not its name.
        let gid = "heatmap_import_\(NameHash.hex(table))_\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
        var committed: [String] = []
        do throws(PostgresError) {
            for copy in copies { try copy.finish() }
            for copy in copies {
                if twoPhase {
                    try copy.prepare(gid)
                } else {
                    try copy.commit()
                    committed.append(copy.shard.description)
                }
            }
        } catch {
            for copy in copies { copy.rollback(reason: "import stopped") }
            guard committed.isEmpty else {
                throw .invalidAnswer(
                    "\(error) (the shards \(committed.joined(separator: ", ")) had committed their rows of "
                        + "\(table) already: --replace drops them)")
            }
            throw error
        }
        do throws(PostgresError) {
            try coordinator.execute("BEGIN")
            let encoding = coordinator.serverEncoding
            for statement in try PostgresShardedImport.coordinatorStatements(
                table: table, names: names, shards: shards, layout: layout, mode: mode, fields: fields,
                encoding: encoding)
                + ShardSummaries.coordinatorStatements(
                    table: table, names: names, layout: layout, finest: copies.map(\.finestSummary),
                    shardCells: copies.map { $0.names.name("_cells") }, encoding: encoding)
                + ShardChangeLog.coordinatorStatements(
                    table: table, names: names, shards: shards.count, encoding: encoding)
            {
                try coordinator.execute(statement)
            }
            for object in Self.coordinatorObjects(
                table: table, names: names, shards: shards.count, mode: .replace, encoding: encoding)
            {
                try coordinator.execute(object.markStatement)
            }
            try coordinator.execute("COMMIT")
        } catch {
            _ = try? coordinator.execute("ROLLBACK")
            for copy in copies { copy.rollback(reason: "import stopped") }
            guard twoPhase else {
                throw .invalidAnswer(
                    "\(error) (every shard had committed its rows of \(table) already: --replace drops them)")
            }
            throw error
        }
        var unconfirmed: [String] = []
        for copy in copies where twoPhase {
            do throws(PostgresError) {
                try copy.commit()
            } catch {
                copy.leavePrepared()
                unconfirmed.append("\(copy.shard): \(error)")
            }
        }
        guard unconfirmed.isEmpty else {
            throw .invalidAnswer(
                "the table \(table) was made on the coordinator, but not every shard confirmed its commit ("
                    + unconfirmed.joined(separator: "; ")
                    + "): its rows wait there in the prepared transaction '\(gid)'; "
                    + "run COMMIT PREPARED '\(gid)' on that shard (or import again with --replace)")
        }
        for copy in copies { try copy.vacuum() }
        try coordinator.execute("ANALYZE \(PostgresConnection.quoted(identifier: table))")
        return copies.reduce(0) { $0 + $1.rows }
    }

    /// Stops the load and rolls every shard back (nothing committed stays changed).
    func rollback(reason: String) {
        guard open else { return }
        open = false
        for copy in copies { copy.rollback(reason: reason) }
    }
}

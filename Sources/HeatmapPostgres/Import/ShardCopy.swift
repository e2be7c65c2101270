import HeatmapKit

/// One shard's part of a sharded import (``PostgresShardedImport``): a connection to the
/// shard holding one transaction in which the shard's table is made (with the time and
/// category columns copied, see ``ImportedFields``) and a binary `COPY` into it stays open,
/// fed a row at a time (``append(latitude:longitude:weight:x:y:key:values:at:)``, sent in
/// pieces of `sendSize` bytes), then ended with its B-tree built (``finish()``), and
/// committed, at once or in two phases (``prepare(_:)`` then ``commit()``). An error,
/// ``rollback(reason:)`` or the copy going away before the commit leaves the shard as it was.
///
/// One caller at a time: it owns its connection.
final class ShardCopy {
    /// Where the copy is.
    enum State: Hashable {
        case copying, copied
        case prepared(String)
        case committed, rolledBack, leftPrepared
    }

    /// The shard, for messages (its password hidden by its description).
    let shard: ConnectionString
    /// Whether the shard allows `PREPARE TRANSACTION` (`max_prepared_transactions` > 0).
    let canPrepare: Bool
    private let connection: PostgresConnection
    private let table: String
    private let quoted: String
    /// The time and category columns copied beside the positions.
    private let fields: ImportedFields
    /// The names derived from the table's on this shard (its encoding's bytes, see ``ObjectNames``).
    let names: ObjectNames
    private let sendSize: Int
    private var bytes: [UInt8] = []
    private(set) var state = State.copying
    /// The rows the server copied, once ``finish()`` returned.
    private(set) var rows = 0
    /// The finest level of the shard's cell summaries (see ``ShardSummaries``), once
    /// ``finish()`` returned.
    private(set) var finestSummary = CellSummaries.levels.upperBound + 1

    /// The objects the shard's part makes (see ``ImportObjects``), the table itself under
    /// ``PostgresImport/Mode/replace``, for `names` and the quoted table.
    static func objects(names: ObjectNames, quoted: String, mode: PostgresImport.Mode) -> [MadeObject] {
        ImportObjects.sharedOnShard + ImportObjects.perTable(names, quoted: quoted)
            + (mode == .replace ? [ImportObjects.table(names, quoted: quoted)] : [])
    }

    /// On the shard's `connection` (whose names ``ShardedLoad`` checked): installs the position
    /// functions, and in one transaction makes the table (dropping one that exists under
    /// ``PostgresImport/Mode/replace``, refusing it otherwise), with the columns of `fields`,
    /// and starts the `COPY`.
    init(
        connection: PostgresConnection, shard: ConnectionString, table: String, mode: PostgresImport.Mode,
        fields: ImportedFields = .init(), sendSize: Int
    ) throws(PostgresError) {
        self.shard = shard
        self.table = table
        self.fields = fields
        self.sendSize = max(1 << 12, sendSize)
        let quoted = PostgresConnection.quoted(identifier: table)
        let names = ObjectNames(table: table, encoding: connection.serverEncoding)
        self.connection = connection
        self.quoted = quoted
        self.names = names
        try PositionSQL.install(
            on: connection, extra: [PostgresImport.fillPositionFunction],
            objects: [ImportObjects.fillPosition])
        let prepared = try connection.execute("SHOW max_prepared_transactions").text(0, 0) ?? "0"
        canPrepare = (Int(prepared) ?? 0) > 0
        try connection.execute("BEGIN")
        do throws(PostgresError) {
            if try PostgresShardedImport.exists(quoted, on: connection) {
                guard mode == .replace else { throw .tableExists("\(table) (on shard \(shard))") }
                try connection.execute("DROP TABLE \(quoted)")
            }
            for statement in PostgresImport.createStatements(quoted, names: names, fields: fields) {
                try connection.execute(statement)
            }
            try connection.beginCopy("COPY \(quoted) (\(fields.copyColumns)) FROM STDIN (FORMAT binary)")
        } catch {
            _ = try? connection.execute("ROLLBACK")
            state = .rolledBack
            throw error
        }
        bytes.reserveCapacity(self.sendSize + 64)
        bytes.append(contentsOf: CopyEncoder.header)
    }

    deinit {
        rollback(reason: "import stopped")
    }

    /// Adds one row, its position and key already computed as the index computes them, and
    /// point `i`'s time and categories of `values` (checked by the caller, see
    /// ``ImportedFields/check(_:count:)``).
    func append(
        latitude: Double, longitude: Double, weight: Float, x: UInt64, y: UInt64, key: UInt64,
        values: PointChunkFields? = nil, at i: Int = 0
    ) throws(PostgresError) {
        CopyEncoder.append(
            latitude: latitude, longitude: longitude, weight: weight, x: x, y: y, key: key,
            extraFields: fields.names.count, to: &bytes)
        fields.append(values, at: i, to: &bytes)
        if bytes.count >= sendSize { try send() }
    }

    /// Ends the `COPY` and builds the B-tree on `key` (as `import` makes it on one server: it
    /// holds x, y, weight and the copied columns, for index-only scans) and the shard's summaries, still in the
    /// transaction.
    func finish() throws(PostgresError) {
        bytes.append(contentsOf: CopyEncoder.trailer)
        try send()
        rows = try connection.endCopy()
        state = .copied
        try connection.execute(fields.keyIndexStatement(MadeObject.quoted(names.name("_key")), on: quoted))
        finestSummary = try ShardSummaries.build(table: table, quoted: quoted, names: names, rows: rows, on: connection)
        for object in Self.objects(names: names, quoted: quoted, mode: .replace) {
            try connection.execute(object.markStatement)
        }
    }

    /// The first phase of a two-phase commit: `PREPARE TRANSACTION gid`, after which the
    /// shard keeps the rows through a crash until ``commit()`` or ``rollback(reason:)``.
    func prepare(_ gid: String) throws(PostgresError) {
        try connection.execute("PREPARE TRANSACTION '\(gid.replacing("'", with: "''"))'")
        state = .prepared(gid)
    }

    /// Commits (the prepared transaction, after ``prepare(_:)``).
    func commit() throws(PostgresError) {
        if case .prepared(let gid) = state {
            try connection.execute("COMMIT PREPARED '\(gid.replacing("'", with: "''"))'")
        } else {
            try connection.execute("COMMIT")
        }
        state = .committed
    }

    /// Leaves a prepared transaction as it is (the coordinator committed, and its `COMMIT
    /// PREPARED` failed): neither ``rollback(reason:)`` nor going away touches it then.
    func leavePrepared() {
        if case .prepared = state { state = .leftPrepared }
    }

    /// `VACUUM (ANALYZE)` of the committed table: its pages all-visible, for index-only scans.
    func vacuum() throws(PostgresError) {
        try connection.execute("VACUUM (ANALYZE) \(quoted)")
    }

    /// Undoes the shard's part, whatever state it is in short of committed; errors are
    /// swallowed (a lost connection rolls back an open transaction by itself; a prepared one
    /// stays until `ROLLBACK PREPARED`, which the error of the import names).
    func rollback(reason: String) {
        switch state {
        case .copying:
            connection.abortCopy(reason: reason)
            _ = try? connection.execute("ROLLBACK")
        case .copied: _ = try? connection.execute("ROLLBACK")
        case .prepared(let gid): _ = try? connection.execute("ROLLBACK PREPARED '\(gid.replacing("'", with: "''"))'")
        case .committed, .rolledBack, .leftPrepared: return
        }
        state = .rolledBack
    }

    private func send() throws(PostgresError) {
        try connection.sendCopyData(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}

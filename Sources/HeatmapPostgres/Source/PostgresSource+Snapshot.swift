import HeatmapCore
import HeatmapKit
import Synchronization

/// What every version of a ``PostgresSource`` shares (``PostgresSource/pinned(toChangeCount:)``
/// makes versions): who learns of a newer state, and a hook the tests use.
final class SourceHooks: Sendable {
    /// Called with the change count a snapshot found when it is not the version's own.
    let newerState = Mutex<(@Sendable (Int64) -> Void)?>(nil)
    /// Called after each statement of a snapshot (tests commit writes from another
    /// connection there, to check that the snapshot does not see them).
    let afterStatement = Mutex<(@Sendable () -> Void)?>(nil)
    /// The texts of tiles' statements and the summaries' finest level (see ``TileStatements``).
    let tileStatements = TileStatements()
    /// Where the versions' M(z) values lie.
    let places = MaximumPlaces()
    /// The M(z) values kept in the database, and what the source may do with them.
    let maximumStore = MaximumStore()
}

/// One connection, used by one thread at a time.
final class Turns: Sendable {
    let connection: Mutex<PostgresConnection>
    /// While M(z)'s cell statements have the hash aggregate off: the setting to restore before
    /// a pixel statement (see ``sortAggregates(_:on:)``); `nil` while it is as it was.
    private let hashAggregate = Mutex<String?>(nil)

    init(_ connection: PostgresConnection) {
        self.connection = Mutex(connection)
    }

    /// Turns the hash aggregate off for M(z)'s cell statements (`sorted`), whose rows come
    /// grouped by the key's prefix in the B-tree's order already (a sorted aggregate is about
    /// twice as fast as hashing them), with work memory for their sorts; and back on for pixel
    /// statements, whose groups are pixels. A statement at each change of kind only (under the
    /// connection's lock), not two around every statement: the search asks many in a row.
    func sortAggregates(_ sorted: Bool, on connection: PostgresConnection) throws(PostgresError) {
        try hashAggregate.withLock { (saved) throws(PostgresError) in
            if sorted, saved == nil {
                let setting = try connection.execute(
                    "SELECT current_setting('enable_hashagg'), set_config('work_mem', '64MB', true), "
                        + "set_config('enable_hashagg', 'off', true)")
                saved = setting.text(0, 0) ?? "on"
            } else if !sorted, let value = saved {
                try connection.execute("SELECT set_config('enable_hashagg', $1, true)", [value])
                saved = nil
            }
        }
    }
}

/// The source's queries on one connection, inside one snapshot: a tile's statements, and M(z)'s
/// search's (its cells and pixels). Threads take turns on the connection (libpq's connections
/// are for one thread at a time).
struct SnapshotSource: CellSource {
    typealias Failure = PostgresError

    let source: PostgresSource
    let turns: Turns
    /// When the snapshot must end by (a tile's share of the statement timeout); `nil` for none.
    let deadline: ContinuousClock.Instant?
    /// What M(z)'s cell questions cost here (see ``PostgresSource/cellCosts(on:)``).
    var cellCosts = CellCosts(isRemote: true, questionCells: PostgresSource.questionCells)

    /// The cells of `query`: the table's cell statement, or gathered from pixel statements.
    func occupiedCells(_ query: CellQuery) throws(PostgresError) -> OccupiedCells {
        guard source.answersCells else { return try gatheredCells(query) }
        return try turns.connection.withLock { (connection) throws(PostgresError) in
            try turns.sortAggregates(true, on: connection)
            return try source.cells(query, on: connection)
        }
    }

    func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) throws(PostgresError) {
        if let deadline, ContinuousClock.now > deadline {
            throw .timedOut(reason: "the tile's statements took longer than the statement timeout together")
        }
        let (sql, parameters) = source.statement(for: query)
        try turns.connection.withLock { (connection) throws(PostgresError) in
            try turns.sortAggregates(false, on: connection)
            let result = try connection.executePrepared(sql, parameters, binary: true)
            try PostgresSource.add(result, into: &sink)
        }
        if let hook = source.hooks.afterStatement.withLock({ $0 }) { hook() }
    }
}

extension PostgresSource {
    /// The same table, standing for the state whose change count is `count`: each tile and
    /// M(z) search then checks, in its snapshot, that the table is still in that state, and
    /// when it is not, fails with ``PostgresError/changed(expected:found:)`` (503: ask again)
    /// after telling ``onNewerState(_:)``'s handler, so that nothing cached for this version
    /// is drawn from another state. `nil` checks nothing.
    public func pinned(toChangeCount count: Int64?) -> PostgresSource {
        PostgresSource(copying: self, pinnedChangeCount: count)
    }

    /// Sets the handler that learns of a newer change count than a version's own, found by a
    /// tile or M(z) search (a server swaps in the version of that count at once).
    package func onNewerState(_ handler: (@Sendable (Int64) -> Void)?) {
        hooks.newerState.withLock { $0 = handler }
    }

    /// The intensities of one tile, from one state of the table: its statements (two across
    /// the antimeridian) in one `REPEATABLE READ READ ONLY` transaction, within the statement
    /// timeout together; a single statement alone needs none (a pinned version's reads the
    /// change count in the same statement, see ``CountedSource``).
    package func intensity(in rect: PixelRect, space: PixelSpace, kernel: GaussianKernel) throws(PostgresError)
        -> IntensityGrid
    {
        let statements = rect.expanded(by: kernel.radius).worldParts(in: space).count
        let deadline = statementTimeout.map { ContinuousClock.now + $0 }
        if statements <= 1, pinnedChangeCount == nil {
            return try pool.with { (connection) throws(PostgresError) in
                try SnapshotSource(source: self, turns: Turns(connection), deadline: deadline)
                    .intensity(in: rect, space: space, kernel: kernel)
            }
        }
        // A pinned version's tile of one statement reads the change count in it: one round trip.
        if statements <= 1, let expected = pinnedChangeCount, layout.imported, !layout.qualifiedName.isEmpty {
            return try pool.with { (connection) throws(PostgresError) in
                try CountedSource(source: self, connection: connection, expected: expected)
                    .intensity(in: rect, space: space, kernel: kernel)
            }
        }
        return try inSnapshot { (connection) throws(PostgresError) in
            try SnapshotSource(source: self, turns: Turns(connection), deadline: deadline)
                .intensity(in: rect, space: space, kernel: kernel)
        }
    }

    /// M(z), exact, as ``WeightSource/maximumIntensity(space:kernel:)`` finds it but always
    /// searched: it neither reads nor writes `heatmap_maxima` (the benchmark times the search).
    package func searchedMaximum(space: PixelSpace, kernel: GaussianKernel) throws(PostgresError) -> Float {
        let found = try inSnapshot { (connection) throws(PostgresError) in
            try searched(space: space, kernel: kernel, on: connection) { (view) throws(PostgresError) in
                try MaximumSearch.run(over: view, space: space, kernel: kernel)
            }
        }
        hooks.maximumStore.searches.add(1, ordering: .relaxed)
        if let place = found.place, let count = pinnedChangeCount {
            hooks.places.record(
                found.value, place: place, count: count,
                slot: MaximumSlotKey(zoom: space.zoom, scale: space.scale, reach: kernel.radius))
        }
        return found.value
    }

    /// Runs `body` on a pooled connection inside a `REPEATABLE READ READ ONLY` transaction:
    /// every statement sees the one state of the data that the first saw. A pinned version
    /// reads the change count first, in the same snapshot. A failed statement (a timeout, say)
    /// rolls the transaction back; a lost connection is dropped by the pool.
    func inSnapshot<T>(_ body: (PostgresConnection) throws(PostgresError) -> T) throws(PostgresError) -> T {
        try pool.with { (connection) throws(PostgresError) in
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            do throws(PostgresError) {
                if let expected = pinnedChangeCount {
                    let found = try changeCount(on: connection) ?? 0
                    if found != expected {
                        try connection.execute("ROLLBACK")
                        if let handler = hooks.newerState.withLock({ $0 }) { handler(found) }
                        throw PostgresError.changed(expected: expected, found: found)
                    }
                }
                let value = try body(connection)
                try connection.execute("COMMIT")
                return value
            } catch {
                if connection.isOK { _ = try? connection.execute("ROLLBACK") }
                throw error
            }
        }
    }
}

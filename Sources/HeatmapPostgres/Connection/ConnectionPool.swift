import Foundation
import Synchronization

/// Connections to one server, handed out one caller at a time and opened as callers need
/// them. A broken connection is dropped, and the next caller opens another; after a failed
/// attempt, callers fail at once with that error until a backoff (0.25 s, doubling to 8 s)
/// has passed, so that a server that is down costs no waiting.
final class ConnectionPool: Sendable {
    let conninfo: ConnectionString
    /// `statement_timeout` set on every connection, in milliseconds; 0 for none.
    let statementTimeoutMilliseconds: Int
    private let idle = Mutex<[PostgresConnection]>([])
    /// Statements every connection runs once before its first use for a caller (a `--where`
    /// condition's temporary function, see ``RowCondition``), in order; only added to.
    private let setup = Mutex<[String]>([])
    /// Whether the server is a coordinator of shards (see ``PostgresConnection/shipsBoundValues``).
    private let shipsBoundValues = Mutex(false)
    private let backoff = Mutex<Backoff>(Backoff())

    private struct Backoff {
        var failure: PostgresError?
        var retryAt: ContinuousClock.Instant?
        var delay: Duration = .milliseconds(250)
    }

    /// Set on every connection the pool opens. With `enable_partitionwise_aggregate` a sharded
    /// table's GROUP BY runs on its shards (see PostgresSource+Partitions). Without sorts, a
    /// tile's GROUP BY hashes: the prepared statement's generic plan expects a few rows, and
    /// sorting every row of a dense tile was 40% of its time in the database (the statements
    /// that need an order still sort: nothing else gives it). Without JIT: the costs that
    /// `enable_sort` off inflates pass JIT's thresholds, and PostgreSQL compiled tile
    /// statements of a few rows (about 0.1 s each in its log; the M(z) search turns it off too).
    /// Generic plans for prepared statements: left to choose, PostgreSQL plans a statement's
    /// first 5 runs for their parameters and keeps doing so when those were sparse tiles, whose
    /// estimates are small (175 µs a tile against 65 µs with the generic plan); the M(z)
    /// searches choose again in their transactions (see ``PostgresConnection/choosePlansInTransaction()``).
    static let sessionSettings = [
        ("enable_partitionwise_aggregate", "on"), ("enable_sort", "off"), ("jit", "off"),
        ("plan_cache_mode", "force_generic_plan"),
    ]

    /// How long a statement waits for a lock another session holds on the table.
    static let lockTimeout = "10s"

    init(conninfo: ConnectionString, statementTimeoutMilliseconds: Int) {
        self.conninfo = conninfo
        self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
    }

    /// Runs `body` with a connection of the pool (opening one if none is idle). When an idle
    /// connection turns out broken (the server restarted, say), the other idle ones are
    /// dropped too and `body` runs once more on a new connection.
    func with<T>(_ body: (PostgresConnection) throws(PostgresError) -> T) throws(PostgresError) -> T {
        if let reused = idle.withLock({ $0.popLast() }) {
            do throws(PostgresError) {
                return try run(body, on: reused)
            } catch {
                guard case .connectionLost = error else { throw error }
                closeAll()
            }
        }
        return try run(body, on: try open())
    }

    private func run<T>(_ body: (PostgresConnection) throws(PostgresError) -> T, on connection: PostgresConnection)
        throws(PostgresError) -> T
    {
        defer { giveBack(connection) }
        connection.shipsBoundValues = shipsBoundValues.withLock { $0 }
        let pending = setup.withLock { Array($0.dropFirst(connection.setupDone)) }
        for statement in pending {
            try connection.execute(statement)
            connection.setupDone += 1
        }
        return try body(connection)
    }

    /// Adds a statement every connection runs once before its next use (those open, and those
    /// the pool opens later); one added before is not added again.
    func addSetup(_ statement: String) {
        setup.withLock { if !$0.contains(statement) { $0.append(statement) } }
    }

    /// Marks the server as a coordinator of shards: statements with bound values go with generic
    /// plans on every connection (see ``PostgresConnection/withBoundValuePlans(_:)``).
    func shipBoundValues() {
        shipsBoundValues.withLock { $0 = true }
    }

    /// Drops every idle connection (the next callers open new ones).
    func closeAll() {
        idle.withLock { $0.removeAll() }
    }

    private func giveBack(_ connection: PostgresConnection) {
        guard connection.isOK else { return }
        idle.withLock { $0.append(connection) }
    }

    private func open() throws(PostgresError) -> PostgresConnection {
        let now = ContinuousClock.now
        if let failure = backoff.withLock({ state in
            state.retryAt.map { now < $0 } == true ? state.failure : nil
        }) {
            throw failure
        }
        do throws(PostgresError) {
            let connection = try PostgresConnection(conninfo)
            for (name, value) in Self.sessionSettings {
                try connection.execute("SELECT set_config($1, $2, false)", [name, value])
            }
            // A table locked by another session (an ALTER TABLE, a LOCK, a VACUUM FULL) makes
            // statements wait for it: at most this long, then they fail as timed out (serve
            // answers 503 and draws again when asked; render stops, saying so), never a silent
            // hang; unless the connection string sets it (options=-c lock_timeout=…).
            try connection.execute(
                "SELECT set_config('lock_timeout', $1, false) WHERE current_setting('lock_timeout') = '0'",
                [Self.lockTimeout])
            if statementTimeoutMilliseconds > 0 {
                try connection.execute(
                    "SELECT set_config('statement_timeout', $1, false)", ["\(statementTimeoutMilliseconds)"])
            }
            backoff.withLock { $0 = Backoff() }
            return connection
        } catch {
            backoff.withLock { state in
                state.failure = error
                state.retryAt = now + state.delay
                state.delay = min(state.delay * 2, .seconds(8))
            }
            throw error
        }
    }
}

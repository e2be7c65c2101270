import Dispatch
import Synchronization

/// Polls a table's change count and calls `onChange` when it moves, so that a server drops
/// the tiles and M(z) values drawn from the old rows (`HeatmapTileLayer.replaceSource(with:)`
/// or a served layer's `replace(with:)`). A failed poll (the database down) is retried at the
/// next tick.
public final class PostgresChangeWatcher: Sendable {
    private let source: PostgresSource
    private let interval: Duration
    private let onChange: @Sendable (Int64?) -> Void
    /// The last count read, and the one `onChange` was last called with: changed and called
    /// under the lock, so that versions are swapped in the order of their counts.
    private let last: Mutex<Int64?>
    /// Dispatch sources may be used from any thread.
    nonisolated(unsafe) private let timer: any DispatchSourceTimer
    /// Whether the timer was resumed, and whether it was cancelled (a suspended source must be
    /// resumed before it goes).
    private let phase = Mutex((resumed: false, cancelled: false))

    /// Watches `source`, every `interval` (default 1 s) once started.
    public init(source: PostgresSource, interval: Duration = .seconds(1), onChange: @escaping @Sendable () -> Void) {
        self.source = source
        self.interval = interval
        self.onChange = { _ in onChange() }
        last = Mutex(try? source.changeCount())
        timer = DispatchSource.makeTimerSource(queue: .global())
    }

    /// Watches `source` from the change count `initialCount` (that of the version being
    /// served), calling `onChange` with each new count, from polls every `interval` and at
    /// once when a tile or M(z) search of a pinned version finds a newer count in its snapshot
    /// (see ``PostgresSource/pinned(toChangeCount:)``); serve `source.pinned(toChangeCount:)`
    /// of that count.
    public init(
        source: PostgresSource, initialCount: Int64?, interval: Duration = .seconds(1),
        onChange: @escaping @Sendable (Int64?) -> Void
    ) {
        self.source = source
        self.interval = interval
        self.onChange = onChange
        last = Mutex(initialCount)
        timer = DispatchSource.makeTimerSource(queue: .global())
        source.onNewerState { [weak self] count in self?.changed(to: count) }
    }

    /// The last change count read (`nil` before one could be).
    public var lastCount: Int64? { last.withLock { $0 } }

    /// Starts polling on a background queue.
    public func start() {
        guard
            phase.withLock({ phase in
                defer { phase.resumed = true }
                return !phase.resumed && !phase.cancelled
            })
        else { return }
        let nanoseconds =
            Int(min(max(interval.components.seconds, 0), 86_400)) * 1_000_000_000
            + Int(interval.components.attoseconds / 1_000_000_000)
        timer.schedule(
            deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(max(nanoseconds, 1_000_000)))
        timer.setEventHandler { [weak self] in self?.poll() }
        timer.resume()
    }

    deinit {
        stop()
    }

    /// Stops polling.
    public func stop() {
        let resume = phase.withLock { phase in
            defer { phase = (true, true) }
            return phase.cancelled ? nil : !phase.resumed
        }
        guard let resume else { return }
        timer.cancel()
        if resume { timer.resume() }
    }

    /// Reads the count once (after gathering the rows written on a sharded table's shards
    /// directly, see ``PostgresSource/gatherShardChanges()``); calls `onChange` if it differs
    /// from the last one read.
    package func poll() {
        _ = try? source.gatherShardChanges()
        guard let count = try? source.changeCount() else { return }
        changed(to: count)
    }

    /// Records `count` as the table's; calls `onChange` (under the lock) if it differs from the
    /// last one.
    package func changed(to count: Int64) {
        last.withLock { last in
            guard last != count else { return }
            last = count
            onChange(count)
        }
    }
}

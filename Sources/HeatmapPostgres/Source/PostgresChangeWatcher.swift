import Dispatch
import Synchronization

/// Polls a table's change count and calls `onChange` when it moves, so that a server drops
/// the tiles and M(z) values drawn from the old rows (`HeatmapTileLayer.replaceSource(with:)`
/// or a served layer's `replace(with:)`). A failed poll (the database down) is retried at the
/// next tick.
public final class PostgresChangeWatcher: Sendable {
    private let source: PostgresSource
    private let interval: Duration
    private let onChange: @Sendable () -> Void
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
        self.onChange = onChange
        last = Mutex(try? source.changeCount())
        timer = DispatchSource.makeTimerSource(queue: .global())
    }

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

    /// Reads the count once; calls `onChange` if it differs from the last one read.
    public func poll() {
        guard let count = try? source.changeCount() else { return }
        let changed = last.withLock { last in
            defer { last = count }
            return last != count
        }
        if changed { onChange() }
    }
}

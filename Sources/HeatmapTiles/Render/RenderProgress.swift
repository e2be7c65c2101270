import Synchronization

/// The counters of a render under way, read by a progress display from any thread, and the
/// flag that asks it to stop (Ctrl-C).
public final class RenderProgress: Sendable {
    /// The tiles the walk will visit, once counted (0 until then).
    public let total = Atomic<Int>(0)
    /// Tiles rendered and stored.
    public let written = Atomic<Int>(0)
    /// Tiles visited that drew nothing (not stored).
    package let empty = Atomic<Int>(0)
    /// Tiles skipped because the output held them already (resuming).
    package let resumed = Atomic<Int>(0)
    /// Bytes of tile data stored.
    package let bytes = Atomic<Int>(0)
    /// Set to stop after the tiles under way.
    package let stopRequested = Atomic<Bool>(false)

    /// Fresh counters.
    public init() {}

    /// Tiles dealt with so far: written, empty or resumed.
    public var done: Int {
        written.load(ordering: .relaxed) + empty.load(ordering: .relaxed) + resumed.load(ordering: .relaxed)
    }

    /// Asks the render to stop after the tiles under way.
    public func requestStop() { stopRequested.store(true, ordering: .relaxed) }

    /// Whether a stop was asked for.
    package var isStopping: Bool { stopRequested.load(ordering: .relaxed) }
}

/// What a render did.
public struct RenderSummary: Sendable, Hashable {
    /// Tiles rendered and stored.
    public var written: Int
    /// Tiles visited that drew nothing.
    public var empty: Int
    /// Tiles the output held already.
    public var resumed: Int
    /// Bytes of tile data stored (identical tiles shared count once).
    public var bytes: Int
    /// Seconds from start to end.
    public var seconds: Double
    /// Whether the render stopped before the end (Ctrl-C).
    public var interrupted: Bool
    /// Whether the output keeps the finished tiles (MBTiles and folders do; PMTiles not).
    public var kept: Bool
    /// The tiles the output holds at the end: those it held (resumed) and those committed; after
    /// a failed commit (a full disk) fewer than were written.
    public var keptTiles: Int

    /// Creates a summary; `committed` is the tiles written that the output kept (default: all).
    package init(
        written: Int, empty: Int, resumed: Int, bytes: Int, seconds: Double, interrupted: Bool, kept: Bool,
        committed: Int? = nil
    ) {
        keptTiles = resumed + min(committed ?? written, written)
        self.written = written
        self.empty = empty
        self.resumed = resumed
        self.bytes = bytes
        self.seconds = seconds
        self.interrupted = interrupted
        self.kept = kept
    }
}

/// A render that failed: the tile or archive error, and what the output keeps.
public struct RenderFailure: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public var reason: String
    /// The counts at the end.
    public var summary: RenderSummary

    /// The reason, and what became of the output.
    public var description: String {
        guard summary.kept else { return reason + "; no output was left" }
        return reason + "; the \(summary.keptTiles) tiles committed are kept, --resume continues"
    }
}

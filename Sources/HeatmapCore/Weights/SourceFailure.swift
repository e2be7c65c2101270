/// An error of a ``WeightSource`` that says whether it was a timeout, so that a layer reports
/// it as ``HeatmapError/sourceTimedOut(_:)`` rather than ``HeatmapError/sourceFailed(_:)`` (a
/// server counts the two apart).
public protocol SourceFailure: Error {
    /// Whether the source gave up because it took longer than its timeout.
    var isTimeout: Bool { get }
}

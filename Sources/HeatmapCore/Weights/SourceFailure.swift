/// An error of a ``WeightSource`` that says whether it was a timeout, so that a layer reports
/// it as ``HeatmapError/sourceTimedOut(_:)`` rather than ``HeatmapError/sourceFailed(_:)`` (a
/// server counts the two apart).
package protocol SourceFailure: Error {
    /// Whether the source gave up because it took longer than its timeout.
    var isTimeout: Bool { get }
}

extension HeatmapError {
    /// A source's error as a layer reports it: a ``HeatmapError`` as it is, a
    /// ``SourceFailure`` that is a timeout as ``sourceTimedOut(_:)``, anything else as
    /// ``sourceFailed(_:)``.
    package init(sourceError error: some Error) {
        if let error = error as? HeatmapError {
            self = error
        } else if let failure = error as? any SourceFailure, failure.isTimeout {
            self = .sourceTimedOut(String(describing: error))
        } else {
            self = .sourceFailed(String(describing: error))
        }
    }
}

extension HeatmapError {
    /// Whether this is a source's failure or timeout (``sourceFailed(_:)``,
    /// ``sourceTimedOut(_:)``), whose text may name the database's host, user, table or SQL.
    package var isSourceFailure: Bool {
        switch self {
        case .sourceFailed, .sourceTimedOut: return true
        default: return false
        }
    }
}

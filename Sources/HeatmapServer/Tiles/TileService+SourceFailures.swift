import HeatmapKit

extension TileService {
    /// The 503 for `error` when it is a source's failure or timeout (of layer `layer`, or of a
    /// member of stack `layer`): a plain sentence for the client, the detail logged once per
    /// failure episode of `layer` (see ``SourceFailureLog``); `nil` for any other error.
    func sourceFailure(_ error: any Error, layer: String) -> RenderFailure? {
        let failed: HeatmapError
        if let error = error as? HeatmapError {
            failed = error
        } else if case .sourceFailed(_, let error)? = error as? TileLayerError {
            failed = error
        } else {
            return nil
        }
        guard let message = sourceFailures.publicMessage(for: failed, layer: layer, write: options.sourceFailureLog)
        else { return nil }
        return RenderFailure(status: 503, message: message)
    }

    /// Ends the failure episode of layer (or stack) `name`, if any, after a tile of it was drawn.
    func sourceAnswered(_ name: String) {
        sourceFailures.drawn(layer: name, write: options.sourceFailureLog)
    }
}

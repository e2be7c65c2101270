/// What went wrong while answering a tile of a ``TileLayer``, naming the layer at fault.
public enum TileLayerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The tile is off the grid, or the zoom or scale is unsupported; the text says which.
    case invalidRequest(String)
    /// A layer answered an image of the wrong size: `expected` pixels square, got `width` × `height`.
    case wrongImageSize(layer: String, expected: Int, width: Int, height: Int)
    /// A layer answered bytes that are not a PNG (or one libpng cannot decode); the text says why.
    case invalidImage(layer: String, reason: String)
    /// A layer's opacity is outside 0...1 or not a number.
    case invalidOpacity(layer: String, opacity: Double)
    /// A layer threw; `reason` is its error's description.
    case layerFailed(layer: String, reason: String)
    /// A file behind a `file://` URL exists but cannot be read.
    case unreadableFile(layer: String, path: String, reason: String)
    /// A URL template or layer setting is unusable; the text says why.
    case invalidLayer(String)
    /// A static image's viewport is unusable; the text says why.
    case invalidViewport(String)
    /// A heatmap layer's source (a database) failed or timed out; `error` is its
    /// ``HeatmapError/sourceFailed(_:)`` or ``HeatmapError/sourceTimedOut(_:)``, kept whole so a
    /// server can answer 503 without the detail.
    case sourceFailed(layer: String, error: HeatmapError)

    /// A sentence for the user: which layer, what was wrong.
    public var description: String {
        switch self {
        case .invalidRequest(let reason):
            return reason
        case .wrongImageSize(let layer, let expected, let width, let height):
            return "layer \(layer): answered a \(width)×\(height) image, but its tiles are \(expected)×\(expected) "
                + "pixels (set its tileSize to the size of its images)"
        case .invalidImage(let layer, let reason):
            return "layer \(layer): the tile is not a usable PNG: \(reason)"
        case .invalidOpacity(let layer, let opacity):
            return "layer \(layer): opacity \(opacity) is outside 0...1"
        case .layerFailed(let layer, let reason):
            return "layer \(layer): \(reason)"
        case .unreadableFile(let layer, let path, let reason):
            return "layer \(layer): cannot read \(path): \(reason)"
        case .invalidLayer(let reason):
            return reason
        case .invalidViewport(let reason):
            return "invalid viewport: \(reason)"
        case .sourceFailed(let layer, let error):
            return "layer \(layer): \(error.description)"
        }
    }
}

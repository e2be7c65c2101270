/// What went wrong, with a message that says what and why.
public enum HeatmapError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The radius (points) is outside 10...50.
    case invalidRadius(Int)
    /// The opacity is outside 0...1 or not a number.
    case invalidOpacity(Double)
    /// A fixed maximum intensity is not a finite number above 0.
    case invalidMaximumIntensity(Double)
    /// A gradient's colours, start points or colour map size are unusable; the text says why.
    case invalidGradient(String)
    /// A minimum or maximum zoom intensity is outside 0...22, or the minimum above the maximum.
    case invalidZoomIntensity(String)
    /// The point at `index` of the data has an unusable coordinate; the text says which and why.
    case invalidPoint(index: Int, reason: String)
    /// The zoom level is outside 0...`WebMercator/maximumZoom`.
    case unsupportedZoom(Int)
    /// The scale is not 1, 2 or 3.
    case unsupportedScale(Int)
    /// The tile's x or y is outside the zoom level's grid of 2^zoom × 2^zoom tiles.
    case tileOutOfRange(x: Int, y: Int, zoom: Int)
    /// A tile could not be encoded; the text says why.
    case encodingFailed(String)
    /// The weights could not be read from their source (a database, say); the text says why.
    case sourceFailed(String)
    /// A radius in metres or its reference latitude is unusable; the text says why.
    case invalidGroundRadius(String)
    /// The mean of a value cannot be drawn as asked (no values, a bad range or minimum); the text says why.
    case invalidMean(String)
    /// A percentile for the normalisation is not a number in 0 < P ≤ 100.
    case invalidPercentile(Double)
    /// The weights' source took longer than its timeout (a database query cancelled, say).
    case sourceTimedOut(String)
    /// A time window or category filter does not apply to the data (an unknown column, a
    /// value no point holds, data read without times); the text names it.
    case invalidFilter(String)

    /// A sentence for the user: what was wrong and what is allowed.
    public var description: String {
        switch self {
        case .invalidRadius(let radius):
            return "radius \(radius) is outside 10...50 points"
        case .invalidOpacity(let opacity):
            return "opacity \(opacity) is outside 0...1"
        case .invalidMaximumIntensity(let value):
            return "maximum intensity \(value) must be a finite number above 0"
        case .invalidGradient(let reason):
            return "invalid gradient: \(reason)"
        case .invalidZoomIntensity(let reason):
            return "invalid zoom intensity range: \(reason)"
        case .invalidPoint(let index, let reason):
            return "point \(index): \(reason)"
        case .unsupportedZoom(let zoom):
            return "zoom \(zoom) is outside 0...\(WebMercator.maximumZoom)"
        case .unsupportedScale(let scale):
            return "scale \(scale) is not 1, 2 or 3"
        case .tileOutOfRange(let x, let y, let zoom):
            let last = (1 << min(max(zoom, 0), 62)) - 1
            return "tile \(zoom)/\(x)/\(y) is outside the grid of zoom \(zoom) (x and y in 0...\(last))"
        case .encodingFailed(let reason):
            return "could not encode the tile: \(reason)"
        case .sourceFailed(let reason):
            return "could not read the weights: \(reason)"
        case .invalidGroundRadius(let reason):
            return "invalid radius in metres: \(reason)"
        case .invalidMean(let reason):
            return "cannot draw the mean: \(reason)"
        case .invalidPercentile(let value):
            return "maximum percentile \(value) must be a number above 0 and at most 100"
        case .sourceTimedOut(let reason):
            return "reading the weights took too long: \(reason)"
        case .invalidFilter(let reason):
            return reason
        }
    }
}

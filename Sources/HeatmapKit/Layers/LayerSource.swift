import HeatmapCore

/// A ``WeightSource`` that is not the in-memory index, behind closures so that a layer can
/// hold any kind; its failures are ``HeatmapError/sourceFailed(_:)``, or
/// ``HeatmapError/sourceTimedOut(_:)`` for a ``SourceFailure`` that is a timeout (a
/// ``HeatmapError`` stays as it is).
struct ExternalSource: Sendable {
    let intensity: @Sendable (PixelRect, PixelSpace, GaussianKernel) throws(HeatmapError) -> IntensityGrid
    let maximumIntensity: @Sendable (PixelSpace, GaussianKernel) throws(HeatmapError) -> Float
    /// Whether a rectangle holds weight, when the source can say (see ``WeightPresence``).
    let holdsWeight: (@Sendable (PixelRect, PixelSpace) throws(HeatmapError) -> Bool)?

    init<Source: WeightSource>(_ source: Source) {
        if let presence = source as? any WeightPresence {
            holdsWeight = Self.presence(presence)
        } else {
            holdsWeight = nil
        }
        intensity = { (rect, space, kernel) throws(HeatmapError) in
            do throws(Source.Failure) {
                return try source.intensity(in: rect, space: space, kernel: kernel)
            } catch {
                throw Self.heatmapError(error)
            }
        }
        maximumIntensity = { (space, kernel) throws(HeatmapError) in
            do throws(Source.Failure) {
                return try source.maximumIntensity(space: space, kernel: kernel)
            } catch {
                throw Self.heatmapError(error)
            }
        }
    }

    static func heatmapError(_ error: some Error) -> HeatmapError { HeatmapError(sourceError: error) }

    private static func presence<Presence: WeightPresence>(_ source: Presence)
        -> @Sendable (PixelRect, PixelSpace) throws(HeatmapError) -> Bool
    {
        { (rect, space) throws(HeatmapError) in
            do throws(Presence.Failure) {
                return try source.holdsWeight(in: rect, space: space)
            } catch {
                throw heatmapError(error)
            }
        }
    }
}

/// What one version of a layer draws from: its points' index, or another source.
enum LayerSource: Sendable {
    case index(PointIndex)
    case external(ExternalSource)

    /// The raw intensities of `rect`, from the one pipeline every source shares.
    func intensity(in rect: PixelRect, space: PixelSpace, kernel: GaussianKernel) throws(HeatmapError)
        -> IntensityGrid
    {
        switch self {
        case .index(let index): return index.intensity(in: rect, space: space, kernel: kernel)
        case .external(let source): return try source.intensity(rect, space, kernel)
        }
    }

    /// M(z), exact: the index's own search, or the source's.
    func maximumIntensity(space: PixelSpace, kernel: GaussianKernel) throws(HeatmapError) -> Float {
        switch self {
        case .index(let index): return index.maximumIntensity(space: space, kernel: kernel)
        case .external(let source): return try source.maximumIntensity(space, kernel)
        }
    }
}

import Synchronization

/// One version of a layer's points, with its index built once, on first use, and the
/// normalisation values computed for it so far. Immutable once built, so a request that
/// holds it sees one consistent data set however the layer changes meanwhile.
final class DataSet: Sendable {
    /// The points as given, or `nil` when the data set was made from an index.
    private let givenPoints: [WeightedLatLng]?
    private let built: Mutex<Result<PointIndex, HeatmapError>?>
    private let building = Mutex<Void>(())
    private let maxima = Mutex<[MaximumKey: Float]>([:])

    private struct MaximumKey: Hashable {
        var zoom: Int
        var scale: Int
        var radius: Int
    }

    /// A data set of points, indexed on first use.
    init(points: [WeightedLatLng]) {
        givenPoints = points
        built = Mutex(nil)
    }

    /// A data set from a built index (from a file reader, say).
    init(index: PointIndex) {
        givenPoints = nil
        built = Mutex(.success(index))
    }

    /// The points as given, or as the index holds them (see ``PointIndex/points``).
    var points: [WeightedLatLng] {
        givenPoints ?? (try? index().points) ?? []
    }

    /// Whether the index is built (or failed), so that `index()` answers at once.
    var isIndexed: Bool { built.withLock { $0 != nil } }

    /// The index, built by the first caller while later callers wait for it.
    ///
    /// - Throws: the first invalid point, as ``HeatmapError/invalidPoint(index:reason:)``.
    func index() throws(HeatmapError) -> PointIndex {
        if let done = built.withLock({ $0 }) { return try done.get() }
        let result = building.withLock { _ -> Result<PointIndex, HeatmapError> in
            if let done = built.withLock({ $0 }) { return done }
            let result = Result { () throws(HeatmapError) in try PointIndex(points: points) }
            built.withLock { $0 = result }
            return result
        }
        return try result.get()
    }

    /// M(z): the largest intensity of the world at a zoom and scale for a radius in points,
    /// computed once and cached.
    func maximumIntensity(index: PointIndex, space: PixelSpace, radius: Int) -> Float {
        let key = MaximumKey(zoom: space.zoom, scale: space.scale, radius: radius)
        if let known = maxima.withLock({ $0[key] }) { return known }
        // Deterministic, so two threads computing it at once agree; the second write is a no-op.
        let value = index.maximumIntensity(space: space, kernel: GaussianKernel(radius: radius * space.scale))
        maxima.withLock { $0[key] = value }
        return value
    }
}

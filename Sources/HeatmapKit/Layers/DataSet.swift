import Dispatch
import Synchronization

/// One version of a layer's points, with its index built once, on first use, and the
/// normalisation values computed for it so far. Immutable once built, so a request that
/// holds it sees one consistent data set however the layer changes meanwhile.
final class DataSet: Sendable {
    /// The points as given, or `nil` when the data set was made from an index.
    private let givenPoints: [WeightedLatLng]?
    private let built: Mutex<Result<PointIndex, HeatmapError>?>
    private let building = Mutex<Void>(())
    private let maxima = Mutex<[MaximumKey: MaximumSlot]>([:])
    private let indexingStarted = Mutex(false)

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

    /// Starts building the index on a background queue, once however often it is asked.
    func startIndexing() {
        guard
            indexingStarted.withLock({ started in
                defer { started = true }
                return !started
            })
        else { return }
        DispatchQueue.global().async { _ = try? self.index() }
    }

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
    /// computed once and cached; callers asking for one being computed wait for it.
    func maximumIntensity(index: PointIndex, space: PixelSpace, radius: Int) -> Float {
        let slot = maximumSlot(zoom: space.zoom, scale: space.scale, radius: radius)
        return slot.value.withLock { value in
            if let value { return value }
            let computed = index.maximumIntensity(space: space, kernel: GaussianKernel(radius: radius * space.scale))
            value = computed
            slot.known.withLock { $0 = true }
            return computed
        }
    }

    /// Starts computing M(z) on a background queue, once however often it is asked.
    func startMaximumIntensity(index: PointIndex, space: PixelSpace, radius: Int) {
        let slot = maximumSlot(zoom: space.zoom, scale: space.scale, radius: radius)
        guard
            slot.started.withLock({ started in
                defer { started = true }
                return !started
            })
        else { return }
        DispatchQueue.global().async { _ = self.maximumIntensity(index: index, space: space, radius: radius) }
    }

    /// Whether M(z) for these parameters is known, so that a tile needs no search first.
    func knowsMaximumIntensity(zoom: Int, scale: Int, radius: Int) -> Bool {
        maxima.withLock { $0[MaximumKey(zoom: zoom, scale: scale, radius: radius)]?.isKnown ?? false }
    }

    private func maximumSlot(zoom: Int, scale: Int, radius: Int) -> MaximumSlot {
        maxima.withLock { slots in
            let key = MaximumKey(zoom: zoom, scale: scale, radius: radius)
            if let slot = slots[key] { return slot }
            let slot = MaximumSlot()
            slots[key] = slot
            return slot
        }
    }
}

/// One M(z), computed under its own lock so that concurrent requests compute it once; `known`
/// answers without waiting for a computation under way.
private final class MaximumSlot: Sendable {
    let value = Mutex<Float?>(nil)
    let known = Mutex(false)
    let started = Mutex(false)

    var isKnown: Bool { known.withLock { $0 } }
}

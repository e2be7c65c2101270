import Dispatch
import HeatmapCore
import Synchronization

/// One version of a layer's points, with its index built once, on first use, and the
/// normalisation values computed for it so far. Immutable once built, so a request that
/// holds it sees one consistent data set however the layer changes meanwhile.
final class DataSet: Sendable {
    /// The points as given, or `nil` when the data set was made from an index.
    private let givenPoints: [WeightedLatLng]?
    /// A source other than an index of points (a database, say), or `nil`.
    let external: ExternalSource?
    /// The points of a layer changed while running (see HeatmapTileLayer+Live.swift), or `nil`.
    let live: LiveData?
    private let built: Mutex<Result<PointIndex, HeatmapError>?>
    private let building = Mutex<Void>(())
    let maxima = Mutex<[MaximumKey: MaximumSlot]>([:])
    private let indexingStarted = Mutex(false)
    /// The points' values for ``Aggregate/mean``, or `nil` when the data have none.
    let valueIndex: ValueIndex?
    /// The mean's second channel from a source other than points (see DataSet+SourceValues.swift), or `nil`.
    let sourceValues: SourceValues?
    /// The middle of the data's latitudes, once computed (see DataSet+Latitude.swift).
    let centre = Mutex<Double?>(nil)
    /// The percentiles computed so far (see DataSet+Percentile.swift).
    let percentiles = PercentileCache()

    struct MaximumKey: Hashable {
        var zoom: Int
        var scale: Int
        /// R in pixels: the same M(z) whether it came from points or metres.
        var reach: Int
    }

    /// A data set of points, indexed on first use.
    init(points: [WeightedLatLng]) {
        givenPoints = points
        external = nil
        valueIndex = nil
        sourceValues = nil
        live = nil
        built = Mutex(nil)
    }

    /// A data set from a built index (from a file reader, say).
    init(index: PointIndex) {
        givenPoints = nil
        external = nil
        valueIndex = nil
        sourceValues = nil
        live = nil
        built = Mutex(.success(index))
    }

    /// A data set drawn from another source; it has no points to list and no index to build.
    init(source: ExternalSource, sourceValues: SourceValues? = nil) {
        givenPoints = nil
        external = source
        valueIndex = nil
        self.sourceValues = sourceValues
        live = nil
        built = Mutex(nil)
    }

    /// A data set of points appended and removed while running: a main index and a small
    /// one of recent additions, drawn as one source.
    init(live: LiveData) {
        givenPoints = nil
        external = ExternalSource(live)
        valueIndex = nil
        sourceValues = nil
        self.live = live
        built = Mutex(nil)
    }

    /// A data set of points with values, for ``Aggregate/mean``; its density is the index.
    init(values: ValueIndex) {
        givenPoints = nil
        external = nil
        valueIndex = values
        sourceValues = nil
        live = nil
        built = Mutex(.success(values.density))
    }

    /// The points as given, or as the index holds them (see ``PointIndex/points``).
    var points: [WeightedLatLng] {
        if let live { return live.points }
        if external != nil { return [] }
        return givenPoints ?? (try? index().points) ?? []
    }

    /// Whether tiles come from a source other than points in memory.
    var isExternal: Bool { external != nil && live == nil }

    /// Whether the index is built (or failed), so that `index()` answers at once; always for
    /// another source.
    var isIndexed: Bool { external != nil || built.withLock { $0 != nil } }

    /// What tiles are drawn from: the index (built by the first caller) or the other source.
    func source() throws(HeatmapError) -> LayerSource {
        if let external { return .external(external) }
        return .index(try index())
    }

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
        if external != nil { return try PointIndex(points: []) }
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
    /// A source's failure is not kept: the next caller tries again.
    func maximumIntensity(source: LayerSource, space: PixelSpace, radius: Int) throws(HeatmapError) -> Float {
        try maximumIntensity(source: source, space: space, reach: radius * space.scale)
    }

    /// M(z) for a kernel of `reach` pixels (R), computed once and cached as above.
    func maximumIntensity(source: LayerSource, space: PixelSpace, reach: Int) throws(HeatmapError) -> Float {
        let slot = maximumSlot(zoom: space.zoom, scale: space.scale, reach: reach)
        return try slot.value.withLock { (value) throws(HeatmapError) -> Float in
            if let value { return value }
            let computed = try source.maximumIntensity(space: space, kernel: GaussianKernel(radius: reach))
            value = computed
            slot.known.withLock { $0 = true }
            return computed
        }
    }

    /// Starts computing M(z) on a background queue, once however often it is asked.
    func startMaximumIntensity(source: LayerSource, space: PixelSpace, radius: Int) {
        startMaximumIntensity(source: source, space: space, reach: radius * space.scale)
    }

    /// Starts computing M(z) for a kernel of `reach` pixels, once however often it is asked.
    func startMaximumIntensity(source: LayerSource, space: PixelSpace, reach: Int) {
        let slot = maximumSlot(zoom: space.zoom, scale: space.scale, reach: reach)
        guard
            slot.started.withLock({ started in
                defer { started = true }
                return !started
            })
        else { return }
        DispatchQueue.global().async {
            if (try? self.maximumIntensity(source: source, space: space, reach: reach)) == nil {
                // Failed (a source lost, say): the next request may start it again.
                slot.started.withLock { $0 = false }
            }
        }
    }

    /// Whether M(z) for these parameters is known, so that a tile needs no search first.
    func knowsMaximumIntensity(zoom: Int, scale: Int, radius: Int) -> Bool {
        knowsMaximumIntensity(zoom: zoom, scale: scale, reach: radius * scale)
    }

    /// Whether M(z) for a kernel of `reach` pixels is known.
    func knowsMaximumIntensity(zoom: Int, scale: Int, reach: Int) -> Bool {
        maxima.withLock { $0[MaximumKey(zoom: zoom, scale: scale, reach: reach)]?.isKnown ?? false }
    }

    func maximumSlot(zoom: Int, scale: Int, reach: Int) -> MaximumSlot {
        maxima.withLock { slots in
            let key = MaximumKey(zoom: zoom, scale: scale, reach: reach)
            if let slot = slots[key] { return slot }
            let slot = MaximumSlot()
            slots[key] = slot
            return slot
        }
    }
}

/// One M(z), computed under its own lock so that concurrent requests compute it once; `known`
/// answers without waiting for a computation under way.
final class MaximumSlot: Sendable {
    let value = Mutex<Float?>(nil)
    let known = Mutex(false)
    let started = Mutex(false)

    var isKnown: Bool { known.withLock { $0 } }
}

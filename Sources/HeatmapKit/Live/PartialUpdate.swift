import HeatmapCore

/// Which M(z) a value is: the zoom, the scale and the kernel's reach R in pixels.
package struct MaximumSlotKey: Sendable, Hashable {
    /// The zoom M(z) describes.
    public var zoom: Int
    /// The device scale.
    public var scale: Int
    /// The kernel's radius in pixels.
    public var reach: Int

    /// Names the M(z) of a zoom, scale and reach.
    public init(zoom: Int, scale: Int, reach: Int) {
        self.zoom = zoom
        self.scale = scale
        self.reach = reach
    }
}

/// A change of a layer's source that reaches only part of the world: the M(z) values that
/// are exact for the new data, and which tiles it can alter. A server keeps its other cached
/// tiles: those the change does not reach, at zooms whose M(z) stayed the same.
package struct PartialUpdate: Sendable {
    /// M(z) for the new data, exact; a value the old data knew and this leaves out is
    /// computed again when a tile asks for it.
    public var maxima: [MaximumSlotKey: Float]
    /// Whether the change can alter the intensities of tile `x`, `y` of a pixel space drawn
    /// with a kernel of `reach` pixels (arguments: space, reach, x, y).
    public var reaches: @Sendable (PixelSpace, Int, Int, Int) -> Bool

    /// Describes a partial change.
    public init(maxima: [MaximumSlotKey: Float], reaches: @escaping @Sendable (PixelSpace, Int, Int, Int) -> Bool) {
        self.maxima = maxima
        self.reaches = reaches
    }
}

extension HeatmapTileLayer {
    /// The M(z) values known for the current data (computed by tiles so far).
    package var knownMaxima: [MaximumSlotKey: Float] {
        state.withLock { $0.data }.knownMaxima
    }

    /// Replaces the source, atomically, as ``replaceSource(with:)`` does, but the new data
    /// start with `maxima` known (they must be exact for `source`); the others are computed
    /// again as tiles ask. The layer's own cache is dropped (a server that keeps its cached
    /// tiles compares the returned values).
    ///
    /// - Returns: the M(z) values the old data knew when it was replaced.
    @discardableResult
    package func replaceSource(with source: some WeightSource, keeping maxima: [MaximumSlotKey: Float])
        -> [MaximumSlotKey: Float]
    {
        let data = DataSet(source: ExternalSource(source))
        data.seed(maxima)
        var before: [MaximumSlotKey: Float] = [:]
        update { state in
            before = state.data.knownMaxima
            state.data = data
        }
        return before
    }
}

extension DataSet {
    /// The M(z) values computed so far.
    var knownMaxima: [MaximumSlotKey: Float] {
        let slots = maxima.withLock { $0 }
        var known: [MaximumSlotKey: Float] = [:]
        for (key, slot) in slots where slot.isKnown {
            if let value = slot.value.withLock({ $0 }) {
                known[MaximumSlotKey(zoom: key.zoom, scale: key.scale, reach: key.reach)] = value
            }
        }
        return known
    }

    /// Records `values` as known M(z) values of a data set no tile has used yet.
    func seed(_ values: [MaximumSlotKey: Float]) {
        for (key, value) in values {
            let slot = maximumSlot(zoom: key.zoom, scale: key.scale, reach: key.reach)
            slot.value.withLock { $0 = value }
            slot.known.withLock { $0 = true }
            slot.started.withLock { $0 = true }
        }
    }
}

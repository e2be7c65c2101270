import HeatmapCore

/// How a zoom's normalisation value M(z) was chosen.
public enum NormalizationKind: Sendable, Hashable {
    /// The fixed ``HeatmapSettings/maximumIntensity``.
    case fixed
    /// The exact maximum intensity at `zoom` (the zoom asked for, clamped to the zoom range).
    case maximum(zoom: Int)
    /// The P-th percentile of the non-zero pixels (see `IntensityPercentile`).
    case percentile(IntensityPercentile)
}

/// M(z) and how it was chosen.
public struct Normalization: Sendable, Hashable {
    /// The value intensities are divided by.
    public var value: Double
    /// Where it comes from.
    public var kind: NormalizationKind
    /// The zoom whose data it describes: the zoom asked for clamped to the zoom range (a
    /// percentile may have been ranked at a coarser one: see ``isExact``); `nil` when fixed.
    public var zoom: Int?

    /// Creates a normalisation value.
    package init(value: Double, kind: NormalizationKind, zoom: Int?) {
        self.value = value
        self.kind = kind
        self.zoom = zoom
    }

    /// Whether the value is exact at ``zoom``: not a percentile carried from a coarser zoom.
    public var isExact: Bool {
        if case .percentile(let p) = kind { return p.zoom == zoom }
        return true
    }
}

extension HeatmapTileLayer.Snapshot {
    /// M(z) for tiles of `space`: the fixed maximum if set; else, at the zoom
    /// ``HeatmapSettings/normalizationZoom(_:)`` gives, the ``HeatmapSettings/maximumPercentile``-th
    /// percentile of the non-zero pixels if set, else the exact maximum.
    func normalization(for space: PixelSpace, source: LayerSource) throws(HeatmapError) -> Normalization {
        if let fixed = settings.maximumIntensity { return Normalization(value: fixed, kind: .fixed, zoom: nil) }
        let zoom = settings.normalizationZoom(space.zoom)
        let normalizing = zoom == space.zoom ? space : try PixelSpace(zoom: zoom, scale: space.scale)
        let scale = space.scale
        if let p = settings.maximumPercentile {
            let found = try data.percentile(p, source: source, space: normalizing) { (zoom) throws(HeatmapError) in
                try self.reach(zoom: zoom, scale: scale)
            }
            if found.value > 0 { return Normalization(value: found.value, kind: .percentile(found), zoom: zoom) }
        }
        let kernelReach = try self.reach(zoom: zoom, scale: scale)
        let maximum = try data.maximumIntensity(source: source, space: normalizing, reach: kernelReach)
        return Normalization(value: Double(maximum), kind: .maximum(zoom: zoom), zoom: zoom)
    }

    /// Whether M(`zoom`) is known without waiting; if not, its computation is started in the
    /// background (once). The mean needs no M(z): its colours come from the value range.
    func normalizationIsReady(zoom: Int, scale: Int) -> Bool {
        guard settings.maximumIntensity == nil, settings.aggregate == .sum else { return true }
        let normalizationZoom = settings.normalizationZoom(zoom)
        guard let source = try? data.source(), let space = try? PixelSpace(zoom: normalizationZoom, scale: scale),
            let reach = try? self.reach(zoom: normalizationZoom, scale: scale)
        else { return true }
        if let p = settings.maximumPercentile {
            if data.percentiles.knows(zoom: normalizationZoom, scale: scale, reach: reach, percentile: p) {
                return true
            }
            let snapshot = self
            data.startPercentile(p, source: source, space: space) { (zoom) throws(HeatmapError) in
                try snapshot.reach(zoom: zoom, scale: scale)
            }
            return false
        }
        if data.knowsMaximumIntensity(zoom: normalizationZoom, scale: scale, reach: reach) { return true }
        data.startMaximumIntensity(source: source, space: space, reach: reach)
        return false
    }
}

extension HeatmapTileLayer {
    /// M(z) at a zoom and scale with how it was chosen (fixed, the exact maximum, or a
    /// percentile with the zoom it was ranked at); `settings` for one request, as for tiles.
    ///
    /// - Throws: ``HeatmapError`` for invalid settings, data or zoom.
    public func normalizationDetails(zoom: Int, scale: Int = 1, settings: HeatmapSettings? = nil)
        throws(HeatmapError) -> Normalization
    {
        let snapshot = try snapshot(overriding: settings)
        let space = try PixelSpace(zoom: zoom, scale: scale)
        return try snapshot.normalization(for: space, source: try snapshot.data.source())
    }
}

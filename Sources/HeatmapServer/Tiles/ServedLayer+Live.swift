import HeatmapCore
import HeatmapKit

extension ServedLayer: PointsLayer {
    /// Whether its points are in memory (a layer drawn from a database takes none).
    var takesPoints: Bool { current.data.source == nil }

    /// The time and category columns the file was read with (none: a plain body).
    var bodyOptions: PointReadOptions { current.data.liveColumns ?? PointReadOptions() }

    /// Appends (or removes) points on the running layer and drops the cached tiles they reach
    /// from every server cache of the layer (``caches``), atomically with the generation that a
    /// render checks before caching its tile, so that the next tile request sees them and no
    /// tile drawn before the change is cached after it; the
    /// bounds of TileJSON follow (exactly: grown by appended points, found again from the points
    /// left after a removal). A reload (SIGHUP, a changed file) replaces them with the file's.
    ///
    /// With times or categories (`filtered`, for a layer read with them), the points join its
    /// filtered views too (see ``changeFiltered(_:filtered:removing:)``).
    ///
    /// - Throws: ``HeatmapError`` naming the point at fault; nothing is changed then.
    func change(_ points: [WeightedLatLng], filtered: FilterIndex?, removing: Bool) throws(HeatmapError)
        -> PointsChange
    {
        let changed = try PointIndex(points: points)
        let base = settings
        return try state.withLock { (state) throws(HeatmapError) -> PointsChange in
            let filters = try changeFiltered(state.data, filtered: filtered, removing: removing)
            let epoch = epochs.load(ordering: .relaxed)
            // A radius in metres at the data's middle latitude moves with it: measured before
            // and after only when a cached tile was drawn so (a pass over the points each).
            let metresAtCentre = caches.contains(drawnFrom: self) { settings in
                let drawn = settings.applied(to: base)
                return drawn.radiusMeters != nil && drawn.radiusLatitude == nil
            }
            let before = metresAtCentre ? try? heatmap.centreLatitude() : nil
            let change = removing ? try heatmap.remove(points) : try heatmap.add(points)
            let after = metresAtCentre ? try? heatmap.centreLatitude() : nil
            let dropped = caches.drop(
                drawnFrom: self, epoch: epoch,
                Self.invalidation(changed: changed, settings: base, before: before, after: after))
            var data = state.data
            if let filters {
                data.filters = filters.next
                let dictionaries = filters.next.facets.dictionaries
                views.withLock { $0 }?.replaceSource(with: filters.next) {
                    filters.batch.reaches($0, codedBy: dictionaries)
                }
            }
            data.liveCount = change.pointCount
            data.bounds = removing ? heatmap.pointBounds : Self.bounds(data.bounds, growing: points)
            state = (state.generation + 1, data)
            answers.advance()
            return PointsChange(change: change, generation: state.generation, tilesDropped: dropped)
        }
    }

    /// The cached tiles a change of the `changed` points alters: those whose area padded by
    /// their settings' reach (radius × scale, or the radius in metres at that zoom) holds one.
    /// Every tile of the mean (its colours follow the data's value range) is dropped, and with
    /// a radius in metres at the data's middle latitude, every tile when that latitude moved
    /// (`before` and `after`). M(z) is not here: a tile not reached is served while the M(z)
    /// it was drawn with is still that of its zoom (see ``stands(_:zoom:scale:at:waiting:)``).
    static func invalidation(changed: PointIndex, settings base: HeatmapSettings, before: Double?, after: Double?)
        -> TileInvalidation
    {
        TileInvalidation(changed: changed, settings: base) { key, settings in
            guard settings.aggregate == .sum else { return nil }
            guard settings.radiusMeters != nil else { return settings.radius * key.scale }
            var latitude = 0.0
            if settings.radiusLatitude == nil {
                guard let before, let after, before == after else { return nil }
                latitude = before
            }
            return try? settings.kernelRadius(zoom: key.zoom, scale: key.scale, centreLatitude: latitude)
        }
    }

    /// `bounds` grown to hold `points`: the smallest box holding both, its longitudes the
    /// shortest interval around the world that holds the box's and the points' (crossing the
    /// antimeridian, `west > east`, when that is shorter).
    static func bounds(_ bounds: PointBounds?, growing points: [WeightedLatLng]) -> PointBounds? {
        guard !points.isEmpty else { return bounds }
        // Arcs of longitude, [west, west + width]: the box's, and each point's (of no width).
        var arcs: [(west: Double, width: Double)] = bounds.map { [($0.west, $0.longitudeSpan)] } ?? []
        var south = bounds?.south ?? .infinity
        var north = bounds?.north ?? -.infinity
        for point in points {
            var longitude = point.coordinate.longitude.truncatingRemainder(dividingBy: 360)
            if longitude >= 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
            arcs.append((longitude, 0))
            south = min(south, point.coordinate.latitude)
            north = max(north, point.coordinate.latitude)
        }
        let (west, east) = coveringInterval(arcs)
        return PointBounds(south: south, west: west, north: north, east: east)
    }

    /// The shortest interval of longitudes holding every arc: the largest gap between them cut
    /// out (-180...180 when they leave none).
    static func coveringInterval(_ arcs: [(west: Double, width: Double)]) -> (west: Double, east: Double) {
        // Pieces within -180...180 (an arc past 180 continues from -180), merged west to east.
        var pieces: [(start: Double, end: Double)] = []
        for arc in arcs {
            guard arc.width < 360 else { return (-180, 180) }
            let end = arc.west + arc.width
            if end > 180 {
                pieces.append((arc.west, 180))
                pieces.append((-180, end - 360))
            } else {
                pieces.append((arc.west, end))
            }
        }
        pieces.sort { $0.start < $1.start }
        var merged: [(start: Double, end: Double)] = []
        for piece in pieces {
            if let last = merged.last, piece.start <= last.end {
                merged[merged.count - 1].end = max(last.end, piece.end)
            } else {
                merged.append(piece)
            }
        }
        guard let first = merged.first, let last = merged.last else { return (-180, 180) }
        // The gap across the antimeridian first: kept, the interval does not cross it.
        var best = (gap: first.start + 360 - last.end, west: first.start, east: last.end)
        for (a, b) in zip(merged, merged.dropFirst()) where b.start - a.end > best.gap {
            best = (b.start - a.end, b.start, a.end)
        }
        return best.gap > 0 ? (best.west, best.east) : (-180, 180)
    }
}

extension ServedLayer {
    /// The filtered data with `filtered` added, and the batch, for a layer read with times or
    /// categories (`nil` for one read without); checked before anything changes.
    ///
    /// - Throws: ``HeatmapError/sourceFailed(_:)`` for a removal (points are matched by
    ///   position and weight, not time and category) or a body without the columns;
    ///   ``HeatmapError/invalidPoint(index:reason:)`` from ``LiveFilterIndex/adding(_:)``.
    func changeFiltered(_ data: LayerData, filtered: FilterIndex?, removing: Bool) throws(HeatmapError)
        -> (next: LiveFilterIndex, batch: FilterIndex)?
    {
        guard let live = data.filters as? LiveFilterIndex else { return nil }
        if removing {
            throw .sourceFailed(
                "points cannot be removed from layer \(name), read with times or categories: its filtered tiles "
                    + "would still draw them (reload the file without them instead)")
        }
        guard let filtered else {
            throw .sourceFailed("layer \(name) was read with times or categories: the body must carry them")
        }
        return (try live.adding(filtered), filtered)
    }
}

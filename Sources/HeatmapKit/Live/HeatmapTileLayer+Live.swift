import HeatmapCore

extension HeatmapTileLayer {
    /// Appends points to the layer while it runs, without rebuilding its index: they go into a
    /// small index beside the main one (merged into it once it holds more than 1/16 of the
    /// points, at least 65,536). Only the cached tiles whose area, padded by the radius, holds
    /// an added point are dropped; M(z) is computed again, exactly, for each zoom as tiles ask
    /// for it. Requests under way finish on the data before the change; a tile is never drawn
    /// from a mix.
    ///
    /// ```swift
    /// try layer.add([WeightedLatLng(coordinate: Coordinate(latitude: -37.81, longitude: 144.96), intensity: 2)])
    /// ```
    ///
    /// - Returns: the points added, the layer's point count and its new ``cacheGeneration``.
    /// - Throws: ``HeatmapError/invalidPoint(index:reason:)`` naming the first invalid point of
    ///   `points` (by its place in the list), or the one whose weight would bring the layer's
    ///   sum above `PointIndex/maximumTotalWeight`; nothing is added then.
    ///   ``HeatmapError/sourceFailed(_:)`` for a layer drawn from another `WeightSource`.
    @discardableResult
    public func add(_ points: [WeightedLatLng]) throws(HeatmapError) -> LiveChange {
        let added = try PointIndex(points: points)
        return try change(count: points.count, changed: added) { (live) throws(HeatmapError) in
            if live.totalWeight + added.totalWeight > PointIndex.maximumTotalWeight {
                var total = live.totalWeight
                for (n, point) in points.enumerated() {
                    total += PointIndex.storedWeight(point.intensity)
                    if total > PointIndex.maximumTotalWeight {
                        throw .invalidPoint(
                            index: n, reason: PointIndex.totalWeightReason("intensity \(point.intensity)"))
                    }
                }
            }
            return live.adding(added)
        }
    }

    /// Removes points from the layer while it runs, each matched by its position (the
    /// fixed-point unit it falls in, about 9 mm at the equator) and its weight (as a 32-bit
    /// float); a point listed twice removes two. All or nothing: if one is not in the layer,
    /// none is removed. Cached tiles and M(z) as for ``add(_:)``.
    ///
    /// - Throws: ``HeatmapError/invalidPoint(index:reason:)`` naming the first point of
    ///   `points` that is invalid or not in the layer (by its place in the list, with its
    ///   coordinate and weight); ``HeatmapError/sourceFailed(_:)`` for a layer drawn from
    ///   another `WeightSource`.
    @discardableResult
    public func remove(_ points: [WeightedLatLng]) throws(HeatmapError) -> LiveChange {
        let removal = try PointIndex.Removal(points: points)
        let removed = try PointIndex(points: points)
        return try change(count: points.count, changed: removed) { (live) throws(HeatmapError) in
            switch live.removing(removal) {
            case .success(let next): return next
            case .failure(let missing):
                let n = missing.places.first ?? 0
                let point = points[n]
                throw .invalidPoint(
                    index: n,
                    reason: "no point at latitude \(point.coordinate.latitude), longitude "
                        + "\(point.coordinate.longitude) with intensity \(point.intensity) to remove"
                        + (missing.places.count > 1 ? " (\(missing.places.count) points are not in the layer)" : ""))
            }
        }
    }

    /// The number of points the layer draws (0 for a layer drawn from another source).
    public var pointCount: Int {
        let data = state.withLock { $0.data }
        if let live = data.live { return live.count }
        return (try? data.index().count) ?? 0
    }

    /// How many tiles the layer has drawn rather than taken from its cache: a counter for
    /// tests and metrics (a change must redraw only the tiles it reaches).
    public var tilesDrawn: Int { drawnTiles.load(ordering: .relaxed) }

    /// Makes the next data from the current with `make` and swaps it in, unless another
    /// change came first (then it starts again from that one); drops the cached tiles that
    /// `changed` reaches in the same step.
    private func change(
        count: Int, changed: PointIndex, _ make: (LiveData) throws(HeatmapError) -> LiveData
    ) throws(HeatmapError) -> LiveChange {
        while true {
            let (data, generation) = state.withLock { ($0.data, $0.generation) }
            // Points given live carry no value: a layer of the mean would lose its values.
            if data.valueIndex != nil || data.sourceValues != nil {
                throw .sourceFailed(
                    "points can be added and removed only on a layer of weights: this layer draws the mean of "
                        + "a value, which added points do not carry (reload the file with them instead)")
            }
            let live: LiveData
            if let current = data.live {
                live = current
            } else {
                if data.isExternal {
                    throw .sourceFailed("points can be added and removed only on a layer of points in memory")
                }
                live = LiveData(base: try data.index(), delta: LiveData.empty)
            }
            let next = try make(live)
            let nextData = DataSet(live: next)
            // A radius in metres measured at the data's middle latitude moves with it: both
            // middles (a pass over the points each) only once a cached tile is drawn so.
            var centres: (before: Double?, after: Double?)?
            let done = state.withLock { (state) -> LiveChange? in
                guard state.generation == generation else { return nil }
                state.data = nextData
                state.generation += 1
                let epoch = state.cacheEpoch
                var reached: [ReachKey: Set<Int>] = [:]
                let dropped = cache.removeAll { key in
                    guard key.generation == epoch, let space = try? PixelSpace(zoom: key.zoom, scale: key.scale)
                    else { return true }
                    var reach = key.settings.radius * key.scale
                    if key.settings.radiusMeters != nil {
                        var latitude = key.settings.radiusLatitude
                        if latitude == nil {
                            let middles = centres ?? ((try? data.centreLatitude()), (try? nextData.centreLatitude()))
                            centres = middles
                            guard middles.before == middles.after else { return true }
                            latitude = middles.before
                        }
                        guard let latitude,
                            let pixels = try? key.settings.kernelRadius(
                                zoom: key.zoom, scale: key.scale, centreLatitude: latitude)
                        else { return true }
                        reach = pixels
                    }
                    let group = ReachKey(space: space, reach: reach)
                    if reached[group] == nil {
                        reached[group] = changed.tilesReached(space: space, reach: group.reach)
                    }
                    return reached[group]?.contains(key.y * space.tilesAcross + key.x) ?? true
                }
                return LiveChange(
                    count: count, pointCount: next.count, generation: state.generation, tilesDropped: dropped)
            }
            if let done { return done }
        }
    }

}

/// The tiles a change reaches are found once for each zoom, scale and reach among the cached.
private struct ReachKey: Hashable {
    var space: PixelSpace
    var reach: Int
}

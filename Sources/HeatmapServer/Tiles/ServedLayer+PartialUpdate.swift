import HeatmapKit

extension ServedLayer {
    /// The M(z) values the current data know (the ones a tile used so far).
    package var knownMaxima: [MaximumSlotKey: Float] { heatmap.knownMaxima }

    /// Swaps in data drawn from another source, as ``replace(with:)`` does, but keeps the
    /// server's cached tiles that `update` does not reach at zooms whose M(z) it keeps:
    /// the others are dropped in the same step, with the tiles drawn with a radius in metres or
    /// a percentile (whose scale the change may move). A tile drawn from the old data that
    /// finishes after the swap is not cached.
    ///
    /// - Returns: the number of cached tiles dropped.
    @discardableResult
    package func replace(with data: LayerData, update: PartialUpdate) -> Int {
        guard let source = data.source else {
            replace(with: data)
            return 0
        }
        // Cached tiles keep the reload epoch in their keys (see ServedLayer+Invalidation.swift):
        // a partial change advances the generation alone, and drops what it reaches.
        let base = settings
        return state.withLock { state in
            let epoch = epochs.load(ordering: .relaxed)
            let before = heatmap.replaceSource(with: source, keeping: update.maxima)
            let moved = Set(before.keys.filter { before[$0] != update.maxima[$0] })
            state = (state.generation + 1, data)
            answers.advance()
            let invalidation = TileInvalidation(reaches: update.reaches, settings: base) { key, settings in
                Self.reach(of: key, settings: settings, kept: update.maxima, moved: moved)
            }
            return caches.drop(drawnFrom: self, epoch: epoch, invalidation)
        }
    }

    /// The kernel's reach in pixels of a cached tile drawn with `settings` for a partial change
    /// (see ``TileInvalidation/reach``): `nil`, dropping it, when its M(z) `moved` or is not one of
    /// those `kept`, or when it was drawn with settings whose scale the change may move (a
    /// radius in metres, a percentile, the mean).
    static func reach(
        of key: TileKey, settings: HeatmapSettings, kept: [MaximumSlotKey: Float], moved: Set<MaximumSlotKey>
    ) -> Int? {
        guard settings.radiusMeters == nil, settings.maximumPercentile == nil, settings.aggregate == .sum else {
            return nil
        }
        let reach = settings.radius * key.scale
        if settings.maximumIntensity == nil {
            let slot = MaximumSlotKey(zoom: settings.normalizationZoom(key.zoom), scale: key.scale, reach: reach)
            if moved.contains(slot) || kept[slot] == nil { return nil }
        }
        return reach
    }
}

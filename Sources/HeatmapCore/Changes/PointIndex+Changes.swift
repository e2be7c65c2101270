extension PointIndex {
    /// The index with the points of `other` added: one merge of the two sorted key arrays
    /// (a point of `other` after the points of this index at the same key), then the running
    /// sums, summaries and run starts made afresh. No point is projected or sorted again.
    ///
    /// - Complexity: O(n + m).
    public func merging(_ other: PointIndex) -> PointIndex {
        if other.count == 0 { return self }
        if count == 0 { return other }
        var mergedKeys: [UInt64] = []
        var mergedWeights: [Float] = []
        mergedKeys.reserveCapacity(count + other.count)
        mergedWeights.reserveCapacity(count + other.count)
        var i = 0
        var j = 0
        while i < count || j < other.count {
            if j == other.count || (i < count && keys[i] <= other.keys[j]) {
                mergedKeys.append(keys[i])
                mergedWeights.append(weights[i])
                i += 1
            } else {
                mergedKeys.append(other.keys[j])
                mergedWeights.append(other.weights[j])
                j += 1
            }
        }
        return PointIndex(sortedKeys: mergedKeys, weights: mergedWeights)
    }

    /// Points to remove from an index, as it keeps them: each one's key (the fixed-point unit
    /// it falls in, see ``WebMercator``) and its weight as a 32-bit float, in the order given.
    public struct Removal: Sendable {
        let keys: [UInt64]
        let weights: [Float]

        /// The number of points to remove.
        public var count: Int { keys.count }

        /// The points' keys and weights.
        ///
        /// - Throws: ``HeatmapError/invalidPoint(index:reason:)`` for a point that could not be
        ///   in any index (a latitude outside -90...90, a weight that is not a finite number ≥ 0).
        public init(points: [WeightedLatLng]) throws(HeatmapError) {
            var keys: [UInt64] = []
            var weights: [Float] = []
            keys.reserveCapacity(points.count)
            weights.reserveCapacity(points.count)
            for (n, point) in points.enumerated() {
                let (latitude, longitude, intensity) =
                    (point.coordinate.latitude, point.coordinate.longitude, point.intensity)
                guard latitude.isFinite, (-90...90).contains(latitude) else {
                    throw .invalidPoint(index: n, reason: "latitude \(latitude) is outside -90...90")
                }
                guard longitude.isFinite else {
                    throw .invalidPoint(index: n, reason: "longitude \(longitude) is not a finite number")
                }
                guard intensity.isFinite, intensity >= 0, intensity <= Double(Float.greatestFiniteMagnitude) else {
                    throw .invalidPoint(index: n, reason: "intensity \(intensity) is not a finite number ≥ 0")
                }
                keys.append(
                    Morton.key(x: WebMercator.unitX(longitude: longitude), y: WebMercator.unitY(latitude: latitude)))
                weights.append(Float(intensity))
            }
            self.keys = keys
            self.weights = weights
        }

        private init(keys: [UInt64], weights: [Float]) {
            self.keys = keys
            self.weights = weights
        }

        /// The removals at `places` (positions in this one), in that order.
        public func subset(_ places: [Int]) -> Removal {
            Removal(keys: places.map { keys[$0] }, weights: places.map { weights[$0] })
        }
    }

    /// The index without the points of `removal`, each matched by its position and weight;
    /// a point given twice removes two such points. Points not found are left out of the
    /// removal and listed in `missing`, by their place in `removal`, ascending.
    ///
    /// - Complexity: O(n + m log m): one pass over the keys, after sorting the m removals.
    public func removing(_ removal: Removal) -> (index: PointIndex, missing: [Int]) {
        let removalKeys = removal.keys
        let removalWeights = removal.weights
        if removal.count == 0 || count == 0 { return (self, Array(0..<removal.count)) }
        let order = removalKeys.indices.sorted { a, b in
            removalKeys[a] != removalKeys[b] ? removalKeys[a] < removalKeys[b] : a < b
        }
        var keptKeys: [UInt64] = []
        var keptWeights: [Float] = []
        keptKeys.reserveCapacity(count)
        keptWeights.reserveCapacity(count)
        var missing: [Int] = []
        var r = 0
        var i = 0
        while i < count {
            while r < order.count && removalKeys[order[r]] < keys[i] {
                missing.append(order[r])
                r += 1
            }
            guard r < order.count, removalKeys[order[r]] == keys[i] else {
                // Copy up to the next key a removal names.
                let next = r < order.count ? removalKeys[order[r]] : UInt64.max
                var end = i
                while end < count && (keys[end] < next || r == order.count) { end += 1 }
                keptKeys.append(contentsOf: keys[i..<end])
                keptWeights.append(contentsOf: weights[i..<end])
                i = end
                continue
            }
            // A run of points at one key, and the removals naming that key.
            let key = keys[i]
            var end = i
            while end < count && keys[end] == key { end += 1 }
            var groupEnd = r
            while groupEnd < order.count && removalKeys[order[groupEnd]] == key { groupEnd += 1 }
            var used = [Bool](repeating: false, count: end - i)
            for g in r..<groupEnd {
                let weight = removalWeights[order[g]]
                if let t = (0..<(end - i)).first(where: { !used[$0] && weights[i + $0] == weight }) {
                    used[t] = true
                } else {
                    missing.append(order[g])
                }
            }
            for t in 0..<(end - i) where !used[t] {
                keptKeys.append(keys[i + t])
                keptWeights.append(weights[i + t])
            }
            i = end
            r = groupEnd
        }
        while r < order.count {
            missing.append(order[r])
            r += 1
        }
        missing.sort()
        if missing.count == removal.count { return (self, missing) }
        return (PointIndex(sortedKeys: keptKeys, weights: keptWeights), missing)
    }

    /// The tiles of `space` whose area padded by `reach` pixels holds one of the indexed
    /// points: the tiles a change of these points can alter. Each is `y * tilesAcross + x`;
    /// columns wrap around the world, rows are clipped to it.
    ///
    /// - Complexity: O(n), at most four tiles a point while `reach` is below a tile's side.
    public func tilesReached(space: PixelSpace, reach: Int) -> Set<Int> {
        var tiles: Set<Int> = []
        let side = space.tileSize
        let across = space.tilesAcross
        for key in keys {
            let column = space.pixel(ofUnit: UInt64(Morton.x(key)))
            let row = space.pixel(ofUnit: UInt64(Morton.y(key)))
            let rows = max(0, floorDivide(row - reach, side))...min(across - 1, floorDivide(row + reach, side))
            let first = floorDivide(column - reach, side)
            let last = min(first + across - 1, floorDivide(column + reach, side))
            for y in rows {
                for x in first...last {
                    tiles.insert(y * across + (x % across + across) % across)
                }
            }
        }
        return tiles
    }
}

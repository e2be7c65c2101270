extension FilterIndex.Builder {
    /// Adds every point of `index` as it holds them (its keys, weights, seconds and category
    /// values, nothing quantised again), its values coded by this builder's dictionaries and
    /// counted in them: live points added to a file's (see `LiveFilterIndex`).
    ///
    /// - Throws: ``HeatmapError/invalidPoint(index:reason:)`` when the index's category columns
    ///   are not the builder's, a column would hold too many values, or the sum of the weights
    ///   would pass ``PointIndex/maximumTotalWeight``; the builder is unchanged then.
    /// - Complexity: O(points of `index` + its distinct values).
    package mutating func append(contentsOf index: FilterIndex) throws(HeatmapError) {
        guard index.dictionaries.map(\.column) == dictionaries.map(\.column) else {
            throw .invalidPoint(
                index: count,
                reason: "category columns \(index.dictionaries.map(\.column)) are not the layer's "
                    + "\(dictionaries.map(\.column))")
        }
        let total = totalWeight + index.slabs.reduce(0) { $0 + $1.totalWeight }
        guard total <= PointIndex.maximumTotalWeight else {
            throw .invalidPoint(index: count, reason: PointIndex.totalWeightReason("the points added"))
        }
        // Each column's codes in `index` mapped to this builder's, counted by the points holding them.
        var grown = dictionaries
        var mappings: [[UInt16]] = []
        for c in index.dictionaries.indices {
            var held = [Int](repeating: 0, count: index.dictionaries[c].values.count)
            for slab in index.codes { for code in slab[c] { held[Int(code)] += 1 } }
            var mapping: [UInt16] = []
            for (code, value) in index.dictionaries[c].values.enumerated() {
                do {
                    mapping.append(try grown[c].add(value, count: held[code]))
                } catch {
                    throw .invalidPoint(index: count, reason: error.description)
                }
            }
            mappings.append(mapping)
        }
        dictionaries = grown
        totalWeight = total
        for s in index.slabs.indices {
            let slab = index.slabs[s]
            let first = index.slabTimes[s].lowerBound
            keys += slab.keys
            weights += slab.weights
            times += index.times[s].lazy.map { first + Int64($0) }
            for c in mappings.indices {
                let mapping = mappings[c]
                codes[c] += index.codes[s][c].lazy.map { mapping[Int($0)] }
            }
        }
    }
}

extension FilterIndex {
    /// Whether `filter`, resolved against `dictionaries` (another index's, holding this one's
    /// values), keeps a point of positive weight of this index: whether adding these points
    /// changes what the filter draws.
    ///
    /// - Complexity: O(points).
    package func reaches(_ filter: PointFilter, codedBy dictionaries: [CategoryDictionary]) -> Bool {
        // Each column's codes here as `dictionaries` code them (-1: a value they lack).
        let mappings = self.dictionaries.enumerated().map { c, own in
            own.values.map { value -> Int in
                guard dictionaries.indices.contains(c) else { return -1 }
                return dictionaries[c].code(of: value).map { Int($0) } ?? -1
            }
        }
        for s in slabs.indices where !filter.window.misses(slabTimes[s].lowerBound, slabTimes[s].upperBound) {
            let first = slabTimes[s].lowerBound
            for i in times[s].indices
            where slabs[s].weights[i] > 0 && filter.window.contains(first + Int64(times[s][i])) {
                let kept = filter.masks.enumerated().allSatisfy { c, mask in
                    guard let mask else { return true }
                    guard mappings.indices.contains(c) else { return false }
                    let code = mappings[c][Int(codes[s][c][i])]
                    return code >= 0 && code < mask.count && mask[code]
                }
                if kept { return true }
            }
        }
        return false
    }
}

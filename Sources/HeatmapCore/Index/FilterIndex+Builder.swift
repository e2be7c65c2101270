extension FilterIndex {
    /// Collects points with a time and category codes one at a time, and builds the index.
    ///
    /// ```swift
    /// var builder = FilterIndex.Builder(categoryColumns: ["kind"])
    /// try builder.append(latitude: -37.8, longitude: 144.9, intensity: 1, time: 1_709_251_200, categories: ["theft"])
    /// let index = builder.build()
    /// ```
    package struct Builder: Sendable {
        var keys: [UInt64] = []
        var weights: [Float] = []
        var times: [Int64] = []
        var codes: [[UInt16]]
        /// The category columns' dictionaries so far.
        package internal(set) var dictionaries: [CategoryDictionary]
        /// The sum of the weights appended, as an index keeps them.
        package internal(set) var totalWeight = 0.0

        /// An empty builder for points with the given category columns (none: times only).
        package init(categoryColumns: [String] = [], capacity: Int = 0) {
            self.init(dictionaries: categoryColumns.map { CategoryDictionary(column: $0) }, capacity: capacity)
        }

        /// An empty builder whose codes continue `dictionaries` (an index's), so that points added
        /// later (live points) share its codes and its filters.
        package init(dictionaries: [CategoryDictionary], capacity: Int = 0) {
            self.dictionaries = dictionaries
            codes = dictionaries.map { _ in [] }
            keys.reserveCapacity(max(0, capacity))
            weights.reserveCapacity(max(0, capacity))
            times.reserveCapacity(max(0, capacity))
        }

        /// The number of points appended so far.
        package var count: Int { keys.count }

        /// Adds a point with its second and its value in each category column (in the order of
        /// the columns).
        ///
        /// - Throws: ``HeatmapError/invalidPoint(index:reason:)`` for what
        ///   ``PointIndex/Builder/append(latitude:longitude:intensity:)`` refuses, a time outside
        ///   ``TimeParser/range``, the wrong number of categories, or a column with too many values.
        package mutating func append(
            latitude: Double, longitude: Double, intensity: Double = 1, time: Int64, categories: [String] = []
        ) throws(HeatmapError) {
            guard categories.count == dictionaries.count else {
                throw .invalidPoint(
                    index: count, reason: "\(categories.count) categories for \(dictionaries.count) category columns")
            }
            guard TimeParser.range.contains(time) else {
                throw .invalidPoint(index: count, reason: "time \(time) is outside years 0000...9999")
            }
            try PointIndex.Builder.check(latitude: latitude, longitude: longitude, intensity: intensity, index: count)
            let total = totalWeight + PointIndex.storedWeight(intensity)
            guard total <= PointIndex.maximumTotalWeight else {
                throw .invalidPoint(index: count, reason: PointIndex.totalWeightReason("intensity \(intensity)"))
            }
            for (c, value) in categories.enumerated() {
                do {
                    codes[c].append(try dictionaries[c].add(value))
                } catch {
                    // The point is refused whole: its values in the columns before are taken back.
                    for d in 0..<c { dictionaries[d].remove(code: codes[d].removeLast()) }
                    throw .invalidPoint(index: count, reason: error.description)
                }
            }
            keys.append(
                Morton.key(x: WebMercator.unitX(longitude: longitude), y: WebMercator.unitY(latitude: latitude)))
            weights.append(Float(intensity))
            times.append(time)
            totalWeight = total
        }

        /// The index of the points appended, in slabs of about `slabSize` points (default
        /// ``FilterIndex/defaultSlabSize(forCount:)``; a second's points never split); the builder
        /// is left empty but keeps its dictionaries.
        ///
        /// - Complexity: O(n): a radix sort by time to cut the slabs, then the plain index's
        ///   radix sort by key over all the points, carrying each point's weight, second and slab,
        ///   and one stable pass that deals them out to their slabs in key order.
        package mutating func build(slabSize: Int? = nil) -> FilterIndex {
            let size = max(1, slabSize ?? FilterIndex.defaultSlabSize(forCount: keys.count))
            let n = keys.count
            // Times as unsigned keys that sort as the signed seconds do.
            var timeKeys = times.map { UInt64(bitPattern: $0) ^ (1 << 63) }
            var byTime = (0..<n).map { UInt32(truncatingIfNeeded: $0) }
            RadixSort.sort(keys: &timeKeys, payload: &byTime)
            let bounds = Self.slabBounds(sortedTimes: timeKeys, size: size)
            // Each point's weight, second after its slab's first, slab and position, by position.
            var carried = [SortedPoint](repeating: SortedPoint(weight: 0, second: 0, slab: 0, position: 0), count: n)
            var slabTimes: [ClosedRange<Int64>] = []
            for s in 0..<(bounds.count - 1) {
                let first = timeKeys[bounds[s]]
                slabTimes.append(Self.time(first)...Self.time(timeKeys[bounds[s + 1] - 1]))
                for j in bounds[s]..<bounds[s + 1] {
                    let p = Int(byTime[j])
                    carried[p] = SortedPoint(
                        weight: weights[p], second: UInt32(truncatingIfNeeded: timeKeys[j] - first),
                        slab: UInt32(truncatingIfNeeded: s), position: byTime[j])
                }
            }
            (timeKeys, byTime) = ([], [])
            RadixSort.sort(keys: &keys, payload: &carried)
            let slabs = Self.dealt(keys: keys, carried: carried, codes: codes, bounds: bounds)
            let (summaries, cells) = Self.summaries(keys: keys, carried: carried)
            // Coarse nodes only of levels whose cells are at most half the points: a node of a
            // level where points rarely share a cell saves nothing (spread data: no pass at all).
            let coarse = FilterIndex.coarseNodes(
                keys: keys, points: carried, slabCounts: (1..<bounds.count).map { bounds[$0] - bounds[$0 - 1] },
                levels: FilterIndex.coarseLevels.filter { cells.indices.contains($0) && cells[$0] <= n / 2 })
            (keys, weights, times, totalWeight) = ([], [], [], 0)
            codes = dictionaries.map { _ in [] }
            return FilterIndex(
                slabs: slabs.indexes, slabTimes: slabTimes, times: slabs.seconds, codes: slabs.codes,
                dictionaries: dictionaries, coarseNodes: coarse, summaries: summaries)
        }

        /// The summaries of coarse levels of all the points in key order (as a plain index of
        /// them keeps), and the number of distinct cells of each level 0...32.
        private static func summaries(keys: [UInt64], carried: [SortedPoint]) -> (CellSummaries, [Int]) {
            var prefix = [Double](repeating: 0, count: keys.count + 1)
            var sum = 0.0
            for i in carried.indices {
                sum += Double(carried[i].weight)
                prefix[i + 1] = sum
            }
            return keys.withUnsafeBufferPointer { k in
                let cells = RunStarts.cellCounts(of: k)
                return (prefix.withUnsafeBufferPointer { CellSummaries(keys: k, prefix: $0, cells: cells) }, cells)
            }
        }

        /// The second a time key (as sorted) stands for.
        private static func time(_ key: UInt64) -> Int64 { Int64(bitPattern: key ^ (1 << 63)) }

        /// The slabs' starts in time order, and `n` last: about `size` points each, a second's
        /// points in one slab, and a slab's seconds within 2^32 of its first.
        private static func slabBounds(sortedTimes: [UInt64], size: Int) -> [Int] {
            let n = sortedTimes.count
            var bounds = [0]
            var start = 0
            while start < n {
                var end = min(n, start + size)
                while end < n, sortedTimes[end] == sortedTimes[end - 1] { end += 1 }
                // A slab's seconds are kept as 32-bit offsets from its first.
                let first = sortedTimes[start]
                if sortedTimes[end - 1] - first > UInt64(UInt32.max) {
                    end = start + 1
                    while end < n, sortedTimes[end] - first <= UInt64(UInt32.max) { end += 1 }
                }
                bounds.append(end)
                start = end
            }
            return bounds
        }

        /// The points sorted by key dealt out to their slabs (stably: each slab in key order),
        /// with their seconds and codes.
        private static func dealt(keys: [UInt64], carried: [SortedPoint], codes: [[UInt16]], bounds: [Int]) -> (
            indexes: [PointIndex], seconds: [[UInt32]], codes: [[[UInt16]]]
        ) {
            let n = keys.count
            var next = Array(bounds.dropLast())
            var slabKeys = [UInt64](repeating: 0, count: n)
            var slabWeights = [Float](repeating: 0, count: n)
            var slabSeconds = [UInt32](repeating: 0, count: n)
            var slabCodes = codes.map { _ in [UInt16](repeating: 0, count: n) }
            slabKeys.withUnsafeMutableBufferPointer { outKeys in
                slabWeights.withUnsafeMutableBufferPointer { outWeights in
                    slabSeconds.withUnsafeMutableBufferPointer { outSeconds in
                        for i in 0..<n {
                            let point = carried[i]
                            let slot = next[Int(point.slab)]
                            next[Int(point.slab)] = slot + 1
                            outKeys[slot] = keys[i]
                            outWeights[slot] = point.weight
                            outSeconds[slot] = point.second
                        }
                    }
                }
            }
            for c in codes.indices {
                next = Array(bounds.dropLast())
                slabCodes[c].withUnsafeMutableBufferPointer { out in
                    codes[c].withUnsafeBufferPointer { column in
                        for point in carried {
                            let slot = next[Int(point.slab)]
                            next[Int(point.slab)] = slot + 1
                            out[slot] = column[Int(point.position)]
                        }
                    }
                }
            }
            let ranges = (0..<(bounds.count - 1)).map { bounds[$0]..<bounds[$0 + 1] }
            return (
                ranges.map {
                    PointIndex(sortedKeys: Array(slabKeys[$0]), weights: Array(slabWeights[$0]), summarised: false)
                },
                ranges.map { Array(slabSeconds[$0]) }, ranges.map { r in slabCodes.map { Array($0[r]) } }
            )
        }
    }

    /// What moves with a point's key through the builder's sort: its weight, its second after
    /// its slab's first, its slab and its position in the order appended.
    struct SortedPoint: BitwiseCopyable {
        var weight: Float
        var second: UInt32
        var slab: UInt32
        var position: UInt32
    }

    /// The slab size the builder picks for `count` points: 8 slabs, each of at least 4096
    /// points (see docs/design/filters.md for the trade-off).
    package static func defaultSlabSize(forCount count: Int) -> Int { max(4096, (count + 7) / 8) }
}

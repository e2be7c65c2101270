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
        /// - Complexity: O(n): the slabs' ends found by ranks of the times (no sort of the
        ///   times), then the plain index's radix sort by key over all the points, carrying each
        ///   point's weight, second and slab and code (12 bytes), and one stable pass that deals
        ///   them out to their slabs in key order.
        package mutating func build(slabSize: Int? = nil) -> FilterIndex {
            let n = keys.count
            let slabbing = FilterIndex.Slabbing(
                times: times, size: slabSize ?? FilterIndex.defaultSlabSize(forCount: n))
            // Each point's weight, second after its slab's first, and tag, by position: with at
            // most one category column the tag is the slab and the code, so that dealing the
            // sorted points reads nothing by position; with more, it is the position.
            let tagged = codes.count <= 1
            var carried = [SortedPoint](unsafeUninitializedCapacity: n) { carried, initialized in
                weights.withUnsafeBufferPointer { weights in
                    times.withUnsafeBufferPointer { times in
                        slabbing.slabOf.withUnsafeBufferPointer { slabOf in
                            let firsts = slabbing.times.map(\.lowerBound)
                            let column = codes.first ?? []
                            for i in 0..<n {
                                let s = Int(slabOf[i])
                                let code = column.isEmpty ? 0 : UInt32(column[i])
                                carried[i] = SortedPoint(
                                    weight: weights[i], second: UInt32(truncatingIfNeeded: times[i] - firsts[s]),
                                    tag: tagged
                                        ? UInt32(truncatingIfNeeded: s) << 16 | code : UInt32(truncatingIfNeeded: i))
                            }
                        }
                    }
                }
                initialized = n
            }
            (weights, times) = ([], [])
            RadixSort.sort(keys: &keys, payload: &carried)
            let slabs = Self.dealt(
                keys: keys, carried: carried, slabOf: tagged ? nil : slabbing.slabOf, codes: codes,
                counts: slabbing.counts)
            codes = dictionaries.map { _ in [] }
            let (summaries, cells) = Self.summaries(keys: keys, carried: carried)
            // Coarse nodes only of levels whose cells are at most half the points: a node of a
            // level where points rarely share a cell saves nothing (spread data: none at all).
            let coarse = FilterIndex.coarseNodes(
                slabs: slabs.indexes,
                levels: FilterIndex.coarseLevels.filter { cells.indices.contains($0) && cells[$0] <= n / 2 })
            (keys, totalWeight) = ([], 0)
            return FilterIndex(
                slabs: slabs.indexes, slabTimes: slabbing.times, times: slabs.seconds, codes: slabs.codes,
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

        /// The points sorted by key dealt out to their slabs (stably: each slab in key order),
        /// with their seconds and codes: one pass over the sorted points writes each to its
        /// slab's next place in scratch buffers, then each slab's arrays are copied out of them.
        private static func dealt(
            keys: [UInt64], carried: [SortedPoint], slabOf: [UInt16]?, codes: [[UInt16]], counts: [Int]
        ) -> (indexes: [PointIndex], seconds: [[UInt32]], codes: [[[UInt16]]]) {
            let n = keys.count
            var starts = [0]
            for count in counts { starts.append(starts[starts.count - 1] + count) }
            let outKeys = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: n)
            let outWeights = UnsafeMutableBufferPointer<Float>.allocate(capacity: n)
            let outSeconds = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: n)
            let outCodes = codes.map { _ in UnsafeMutableBufferPointer<UInt16>.allocate(capacity: n) }
            defer {
                outKeys.deallocate()
                outWeights.deallocate()
                outSeconds.deallocate()
                for column in outCodes { column.deallocate() }
            }
            var next = Array(starts.dropLast())
            next.withUnsafeMutableBufferPointer { next in
                keys.withUnsafeBufferPointer { keys in
                    carried.withUnsafeBufferPointer { carried in
                        guard let slabOf else {
                            // Tagged with slab and code: one sequential pass.
                            for i in 0..<n {
                                let point = carried[i]
                                let s = Int(point.tag >> 16)
                                let slot = next[s]
                                next[s] = slot + 1
                                outKeys[slot] = keys[i]
                                outWeights[slot] = point.weight
                                outSeconds[slot] = point.second
                                if let column = outCodes.first { column[slot] = UInt16(truncatingIfNeeded: point.tag) }
                            }
                            return
                        }
                        for i in 0..<n {
                            let point = carried[i]
                            let s = Int(slabOf[Int(point.tag)])
                            let slot = next[s]
                            next[s] = slot + 1
                            outKeys[slot] = keys[i]
                            outWeights[slot] = point.weight
                            outSeconds[slot] = point.second
                            for c in outCodes.indices { outCodes[c][slot] = codes[c][Int(point.tag)] }
                        }
                    }
                }
            }
            let ranges = counts.indices.map { starts[$0]..<starts[$0 + 1] }
            return (
                ranges.map {
                    PointIndex(
                        sortedKeys: Array(outKeys[$0]), weights: Array(outWeights[$0]), summarised: false)
                },
                ranges.map { Array(outSeconds[$0]) }, ranges.map { r in outCodes.map { Array($0[r]) } }
            )
        }
    }

    /// What moves with a point's key through the builder's sort (12 bytes): its weight, its
    /// second after its slab's first, and a tag: its slab (high 16 bits) and its category code
    /// (low 16) when there is at most one category column, else its position in the order
    /// appended (its slab and codes read by position when the points are dealt).
    struct SortedPoint: BitwiseCopyable {
        var weight: Float
        var second: UInt32
        var tag: UInt32
    }

    /// The slab size the builder picks for `count` points: 8 slabs, each of at least 4096
    /// points (see docs/design/filters.md for the trade-off).
    package static func defaultSlabSize(forCount count: Int) -> Int { max(4096, (count + 7) / 8) }
}

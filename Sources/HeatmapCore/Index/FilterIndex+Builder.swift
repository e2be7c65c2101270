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
            codes = dictionaries.map { _ in [UInt16](unsafeUninitializedCapacity: max(0, capacity)) { $1 = 0 } }
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
        ///   point's weight, and its second, slab and code (packed in 4 bytes where they fit, else
        ///   8: see ``FilterIndex/PayloadLayout``), and one stable pass that deals them out to
        ///   their slabs in key order.
        package mutating func build(slabSize: Int? = nil) -> FilterIndex {
            let slabbing = FilterIndex.Slabbing(
                times: times, size: slabSize ?? FilterIndex.defaultSlabSize(forCount: keys.count))
            let layout = FilterIndex.PayloadLayout(
                slabs: slabbing.counts.count, span: slabbing.times.reduce(0) { max($0, $1.upperBound - $1.lowerBound) },
                columns: codes.count, values: dictionaries.first?.values.count ?? 0)
            return layout.packs
                ? build(slabbing: slabbing, layout: layout, carrying: FilterIndex.PackedPoint.self)
                : build(slabbing: slabbing, layout: layout, carrying: FilterIndex.SortedPoint.self)
        }

        /// ``build(slabSize:)`` with the payload `Payload` laid out by `layout`.
        private mutating func build<Payload: SortedPayload>(
            slabbing: FilterIndex.Slabbing, layout: FilterIndex.PayloadLayout, carrying: Payload.Type
        ) -> FilterIndex {
            let n = keys.count
            // Each point's payload, by position: where the layout is tagged it holds the slab and
            // the code, so that dealing the sorted points reads nothing by position.
            var carried = [Payload](unsafeUninitializedCapacity: n) { carried, initialized in
                weights.withUnsafeBufferPointer { weights in
                    times.withUnsafeBufferPointer { times in
                        slabbing.slabOf.withUnsafeBufferPointer { slabOf in
                            let firsts = slabbing.times.map(\.lowerBound)
                            let column = codes.first ?? []
                            for i in 0..<n {
                                let s = Int(slabOf[i])
                                carried[i] = Payload(
                                    weight: weights[i], second: UInt32(truncatingIfNeeded: times[i] - firsts[s]),
                                    slab: UInt32(truncatingIfNeeded: s), code: column.isEmpty ? 0 : UInt32(column[i]),
                                    position: UInt32(truncatingIfNeeded: i), layout: layout)
                            }
                        }
                    }
                }
                initialized = n
            }
            (weights, times) = ([], [])
            RadixSort.sort(keys: &keys, payload: &carried)
            let slabs = Self.dealt(
                keys: keys, carried: carried, layout: layout, slabOf: layout.tagged ? nil : slabbing.slabOf,
                codes: codes, counts: slabbing.counts)
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
        private static func summaries<Payload: SortedPayload>(keys: [UInt64], carried: [Payload]) -> (
            CellSummaries, [Int]
        ) {
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
        /// with their seconds and codes: one pass over the sorted points lists their positions
        /// slab after slab (4 bytes a point), then each slab's arrays are gathered from those
        /// positions into their own storage (no scratch copy of the points to copy out again).
        private static func dealt<Payload: SortedPayload>(
            keys: [UInt64], carried: [Payload], layout: FilterIndex.PayloadLayout, slabOf: [UInt16]?,
            codes: [[UInt16]], counts: [Int]
        ) -> (indexes: [PointIndex], seconds: [[UInt32]], codes: [[[UInt16]]]) {
            let n = keys.count
            var starts = [0]
            for count in counts { starts.append(starts[starts.count - 1] + count) }
            // The sorted points' positions, slab after slab: each slab's ascending, in key order.
            let order = [UInt32](unsafeUninitializedCapacity: n) { order, initialized in
                var next = Array(starts.dropLast())
                let slabOf = slabOf ?? []
                for i in 0..<n {
                    let tag = carried[i].tag(layout)
                    let s = slabOf.isEmpty ? Int(tag >> 16) : Int(slabOf[Int(tag)])
                    order.initializeElement(at: next[s], to: UInt32(truncatingIfNeeded: i))
                    next[s] += 1
                }
                initialized = n
            }
            // Each slab's arrays gathered straight into their own storage, in the slab's order.
            return keys.withUnsafeBufferPointer { keys in
                carried.withUnsafeBufferPointer { carried in
                    order.withUnsafeBufferPointer { order in
                        func gathered<T>(_ range: Range<Int>, _ value: (Int) -> T) -> [T] {
                            [T](unsafeUninitializedCapacity: range.count) { out, initialized in
                                for j in range {
                                    out.initializeElement(at: j - range.lowerBound, to: value(Int(order[j])))
                                }
                                initialized = range.count
                            }
                        }
                        var indexes: [PointIndex] = []
                        var seconds: [[UInt32]] = []
                        var slabCodes: [[[UInt16]]] = []
                        for s in counts.indices {
                            let range = starts[s]..<starts[s + 1]
                            indexes.append(
                                PointIndex(
                                    sortedKeys: gathered(range) { keys[$0] },
                                    weights: gathered(range) { carried[$0].weight },
                                    summarised: false))
                            seconds.append(gathered(range) { carried[$0].second(layout) })
                            // Tagged: the code is the tag's low bits; else read by position.
                            slabCodes.append(
                                codes.indices.map { c in
                                    slabOf == nil
                                        ? gathered(range) { UInt16(truncatingIfNeeded: carried[$0].tag(layout)) }
                                        : gathered(range) { codes[c][Int(carried[$0].tag(layout))] }
                                })
                        }
                        return (indexes, seconds, slabCodes)
                    }
                }
            }
        }
    }

    /// The slab size the builder picks for `count` points: 4 slabs, each of at least 4096
    /// points (see docs/design/filters.md for the trade-off).
    package static func defaultSlabSize(forCount count: Int) -> Int { max(4096, (count + 3) / 4) }
}

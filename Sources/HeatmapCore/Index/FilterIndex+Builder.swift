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
        /// Each column's values seen lately, found without hashing their bytes.
        var recent: [CategoryDictionary.Recent]
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
            recent = dictionaries.map { _ in CategoryDictionary.Recent() }
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
                if let code = recent[c].code(of: value) {
                    dictionaries[c].add(code: code)
                    codes[c].append(code)
                    continue
                }
                do {
                    let code = try dictionaries[c].add(value)
                    recent[c].remember(value, code: code)
                    codes[c].append(code)
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
        ///   8: see ``FilterIndex/PayloadLayout``), one stable pass that lists them slab after
        ///   slab in key order, and one pass a slab that gathers its arrays, running sums and
        ///   cell counts (see ``FilterIndex/Dealing``).
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
        ///
        /// The arrays appended are reused once read, so that the build touches little new
        /// memory (each new page a fault and a clear): the payloads are written over the
        /// times where they are as wide (8 bytes), and the sorted points' order over the
        /// weights.
        private mutating func build<Payload: SortedPayload>(
            slabbing: FilterIndex.Slabbing, layout: FilterIndex.PayloadLayout, carrying: Payload.Type
        ) -> FilterIndex {
            let n = keys.count
            var (keys, weights, times, codes): ([UInt64], [Float], [Int64], [[UInt16]]) = ([], [], [], [])
            swap(&keys, &self.keys)
            swap(&weights, &self.weights)
            swap(&times, &self.times)
            swap(&codes, &self.codes)
            self.codes = dictionaries.map { _ in [] }
            totalWeight = 0
            let (slabs, summaries, coarse) = weights.withUnsafeMutableBufferPointer { weights in
                times.withUnsafeMutableBytes { times in
                    Self.withPayloads(over: times, count: n, as: Payload.self) { carried in
                        // Each point's payload, by position: where the layout is tagged it holds the
                        // slab and the code, so that dealing the sorted points reads nothing by position.
                        slabbing.slabOf.withUnsafeBufferPointer { slabOf in
                            let firsts = slabbing.times.map(\.lowerBound)
                            let column = codes.first ?? []
                            for i in 0..<n {
                                let s = Int(slabOf[i])
                                let time = times.load(fromByteOffset: i * 8, as: Int64.self)
                                carried.initializeElement(
                                    at: i,
                                    to: Payload(
                                        weight: weights[i], second: UInt32(truncatingIfNeeded: time - firsts[s]),
                                        slab: UInt32(truncatingIfNeeded: s),
                                        code: column.isEmpty ? 0 : UInt32(column[i]),
                                        position: UInt32(truncatingIfNeeded: i), layout: layout))
                            }
                        }
                        keys.withUnsafeMutableBufferPointer { RadixSort.sort(keys: $0, payload: carried) }
                        return weights.withMemoryRebound(to: UInt32.self) { order in
                            Self.dealt(
                                keys: keys, carried: UnsafeBufferPointer(carried), order: order, layout: layout,
                                slabbing: slabbing, codes: codes)
                        }
                    }
                }
            }
            return FilterIndex(
                slabs: slabs.indexes, slabTimes: slabbing.times, times: slabs.seconds, codes: slabs.codes,
                dictionaries: dictionaries, coarseNodes: coarse, summaries: summaries)
        }
    }

    /// The slab size the builder picks for `count` points: 4 slabs, each of at least 4096
    /// points (see docs/design/filters.md for the trade-off).
    package static func defaultSlabSize(forCount count: Int) -> Int { max(4096, (count + 3) / 4) }
}

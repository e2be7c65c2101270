extension FilterIndex {
    /// Collects points with a time and category codes one at a time, and builds the index.
    ///
    /// ```swift
    /// var builder = FilterIndex.Builder(categoryColumns: ["kind"])
    /// try builder.append(latitude: -37.8, longitude: 144.9, intensity: 1, time: 1_709_251_200, categories: ["theft"])
    /// let index = builder.build()
    /// ```
    package struct Builder: Sendable {
        private var keys: [UInt64] = []
        private var weights: [Float] = []
        private var times: [Int64] = []
        private var codes: [[UInt16]]
        /// The category columns' dictionaries so far.
        package private(set) var dictionaries: [CategoryDictionary]
        /// The sum of the weights appended, as an index keeps them.
        package private(set) var totalWeight = 0.0

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
            var pointCodes: [UInt16] = []
            for (c, value) in categories.enumerated() {
                do {
                    pointCodes.append(try dictionaries[c].add(value))
                } catch {
                    throw .invalidPoint(index: count, reason: error.description)
                }
            }
            for (c, code) in pointCodes.enumerated() { codes[c].append(code) }
            keys.append(
                Morton.key(x: WebMercator.unitX(longitude: longitude), y: WebMercator.unitY(latitude: latitude)))
            weights.append(Float(intensity))
            times.append(time)
            totalWeight = total
        }

        /// The index of the points appended, in slabs of about `slabSize` points (default
        /// ``FilterIndex/defaultSlabSize(forCount:)``; a second's points never split); the builder is left empty but keeps its dictionaries.
        ///
        /// - Complexity: O(n): a radix sort by time, and one by key in each slab.
        package mutating func build(slabSize: Int? = nil) -> FilterIndex {
            let size = max(1, slabSize ?? FilterIndex.defaultSlabSize(forCount: keys.count))
            let n = keys.count
            // Times as unsigned keys that sort as the signed seconds do.
            let byTime = RadixSort.order(of: times.map { UInt64(bitPattern: $0) ^ (1 << 63) })
            var slabs: [PointIndex] = []
            var slabTimes: [ClosedRange<Int64>] = []
            var slabSeconds: [[UInt32]] = []
            var slabCodes: [[[UInt16]]] = []
            var start = 0
            while start < n {
                var end = min(n, start + size)
                while end < n, times[Int(byTime[end])] == times[Int(byTime[end - 1])] { end += 1 }
                // A slab's seconds are kept as 32-bit offsets from its first.
                let first = times[Int(byTime[start])]
                if times[Int(byTime[end - 1])] - first > Int64(UInt32.max) {
                    end = start + 1
                    while end < n, times[Int(byTime[end])] - first <= Int64(UInt32.max) { end += 1 }
                }
                let members = byTime[start..<end]
                let order = RadixSort.order(of: members.map { keys[Int($0)] })
                let points = order.map { members[members.startIndex + Int($0)] }
                slabs.append(
                    PointIndex(sortedKeys: points.map { keys[Int($0)] }, weights: points.map { weights[Int($0)] }))
                slabTimes.append(times[Int(byTime[start])]...times[Int(byTime[end - 1])])
                slabSeconds.append(points.map { UInt32(times[Int($0)] - first) })
                slabCodes.append(codes.map { column in points.map { column[Int($0)] } })
                start = end
            }
            (keys, weights, times, totalWeight) = ([], [], [], 0)
            codes = dictionaries.map { _ in [] }
            return FilterIndex(
                slabs: slabs, slabTimes: slabTimes, times: slabSeconds, codes: slabCodes, dictionaries: dictionaries)
        }
    }

    /// The slab size the builder picks for `count` points: 16 slabs, each of at least 4096
    /// points (see docs/design/filters.md for the trade-off).
    package static func defaultSlabSize(forCount count: Int) -> Int { max(4096, (count + 15) / 16) }
}

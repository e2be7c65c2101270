extension FilterIndex {
    /// The points cut by time into slabs: each point's slab, and each slab's seconds and count.
    struct Slabbing {
        /// Each point's slab, in the order appended.
        var slabOf: [UInt16]
        /// The first and last second of each slab's points, in time order.
        var times: [ClosedRange<Int64>]
        /// The number of points of each slab.
        var counts: [Int]

        /// The most slabs: their numbers are 16-bit.
        static let maximumCount = Int(UInt16.max)
        /// The longest span of seconds a slab may start: its seconds are kept as 32-bit offsets.
        static let maximumSpan: Int64 = 1 << 32

        /// Cuts `times` into slabs of about `size` points in time order (fewer where one second
        /// holds more), a second's points in one slab, and a slab's seconds within 2^32 − 1 of
        /// its first; `size` is raised so that there are at most 65,000 of them.
        ///
        /// No sort of the times: the times at the slabs' ends are found by ranks
        /// (``times(at:of:low:high:)``), then a pass gives each point its slab.
        ///
        /// - Complexity: O(n) and 2 bytes a point, plus a sort of the points of the histogram
        ///   buckets holding a slab's end (a few hundred for spread times; at most all of them).
        init(times: [Int64], size requested: Int) {
            let n = times.count
            guard let first = times.first else {
                self.init(slabOf: [], times: [], counts: [])
                return
            }
            let size = max(1, requested, (n + 64_999) / 65_000)
            var (low, high) = (first, first)
            for t in times {
                low = min(low, t)
                high = max(high, t)
            }
            // A slab ends with the point of each multiple of `size` in time order, and every
            // point of its second: the next one starts a second later.
            let ends = times.withUnsafeBufferPointer { t in
                Self.times(at: Array(stride(from: size - 1, to: n - 1, by: size)), of: t, low: low, high: high)
            }
            var starts = [low]
            for end in ends where end < high && end + 1 > starts[starts.count - 1] { starts.append(end + 1) }
            // A slab starting more than 2^32 seconds before the next is cut where that span ends.
            var bounds: [Int64] = []
            for (k, start) in starts.enumerated() {
                let end = k + 1 < starts.count ? starts[k + 1] : high + 1
                var s = start
                while true {
                    bounds.append(s)
                    if end - s <= Self.maximumSpan { break }
                    s += Self.maximumSpan
                }
            }
            self.init(times: times, bounds: bounds, high: high)
        }

        /// Gives each point the slab of the last of `bounds` (ascending first seconds, the
        /// first the least time) at or before its time, `high` the greatest time, leaving out
        /// slabs without points.
        private init(times: [Int64], bounds: [Int64], high: Int64) {
            // The slab of each of 2^16 equal spans of the times, where one slab holds the whole
            // span (all but the few where a slab starts): a point's slab is one look-up there.
            let low = bounds[0]
            let shift = UInt64(max(0, (64 - UInt64(bitPattern: high &- low).leadingZeroBitCount) - 16))
            let searched = UInt16.max
            func slab(of t: Int64) -> Int {
                var (s, length) = (0, bounds.count)
                while length > 1 {
                    let half = length >> 1
                    s = bounds[s + half] <= t ? s + half : s
                    length -= half
                }
                return s
            }
            let spans = Int(UInt64(bitPattern: high &- low) >> shift) + 1
            let table = (0..<spans).map { b -> UInt16 in
                let first = low + Int64(b) << shift
                let s = slab(of: first)
                return slab(of: first + (Int64(1) << shift) - 1) == s ? UInt16(truncatingIfNeeded: s) : searched
            }
            var slabOf = [UInt16](repeating: 0, count: times.count)
            var counts = [Int](repeating: 0, count: bounds.count)
            var lows = [Int64](repeating: .max, count: bounds.count)
            var highs = [Int64](repeating: .min, count: bounds.count)
            slabOf.withUnsafeMutableBufferPointer { slabOf in
                counts.withUnsafeMutableBufferPointer { counts in
                    lows.withUnsafeMutableBufferPointer { lows in
                        highs.withUnsafeMutableBufferPointer { highs in
                            table.withUnsafeBufferPointer { table in
                                times.withUnsafeBufferPointer { times in
                                    for i in times.indices {
                                        let t = times[i]
                                        let held = table[Int(UInt64(bitPattern: t &- low) >> shift)]
                                        let s = held == searched ? slab(of: t) : Int(held)
                                        slabOf[i] = UInt16(truncatingIfNeeded: s)
                                        counts[s] += 1
                                        lows[s] = min(lows[s], t)
                                        highs[s] = max(highs[s], t)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            // Slabs a long span's cut left empty are dropped, and the numbers closed up.
            if counts.contains(0) {
                var renumbered = [UInt16](repeating: 0, count: counts.count)
                var kept = 0
                for s in counts.indices where counts[s] > 0 {
                    renumbered[s] = UInt16(truncatingIfNeeded: kept)
                    kept += 1
                }
                for i in slabOf.indices { slabOf[i] = renumbered[Int(slabOf[i])] }
                let nonEmpty = counts.indices.filter { counts[$0] > 0 }
                (counts, lows, highs) = (
                    nonEmpty.map { counts[$0] }, nonEmpty.map { lows[$0] }, nonEmpty.map { highs[$0] }
                )
            }
            self.init(slabOf: slabOf, times: zip(lows, highs).map { $0...$1 }, counts: counts)
        }

        private init(slabOf: [UInt16], times: [ClosedRange<Int64>], counts: [Int]) {
            self.slabOf = slabOf
            self.times = times
            self.counts = counts
        }

        /// The times at `ranks` (ascending positions in time order, each below the count):
        /// a histogram of the times' top 16 bits above `low` finds each rank's bucket, and only
        /// the points of those buckets are sorted.
        ///
        /// - Complexity: O(n) for two passes, and O(k) to sort the k points of the buckets.
        static func times(at ranks: [Int], of times: UnsafeBufferPointer<Int64>, low: Int64, high: Int64) -> [Int64] {
            guard !ranks.isEmpty else { return [] }
            let span = UInt64(bitPattern: high &- low)
            let shift = UInt64(max(0, (64 - span.leadingZeroBitCount) - 16))
            var histogram = [Int](repeating: 0, count: Int(span >> shift) + 1)
            histogram.withUnsafeMutableBufferPointer { histogram in
                for t in times { histogram[Int(UInt64(bitPattern: t &- low) >> shift)] += 1 }
            }
            // Each rank's bucket and the points in the buckets before it.
            var buckets: [(bucket: Int, before: Int)] = []
            var wanted = [Bool](repeating: false, count: histogram.count)
            var (bucket, before) = (0, 0)
            for rank in ranks {
                while before + histogram[bucket] <= rank {
                    before += histogram[bucket]
                    bucket += 1
                }
                buckets.append((bucket, before))
                wanted[bucket] = true
            }
            if shift == 0 { return buckets.map { low + Int64($0.bucket) } }
            // The wanted buckets' points, sorted: a bucket's start there is the points of the
            // wanted buckets before it.
            var picked: [UInt64] = []
            for t in times where wanted[Int(UInt64(bitPattern: t &- low) >> shift)] {
                picked.append(UInt64(bitPattern: t &- low))
            }
            RadixSort.sort(keys: &picked)
            var startInPicked = [Int](repeating: 0, count: histogram.count)
            var running = 0
            for b in histogram.indices where wanted[b] {
                startInPicked[b] = running
                running += histogram[b]
            }
            return zip(ranks, buckets).map { rank, found in
                low + Int64(bitPattern: picked[startInPicked[found.bucket] + rank - found.before])
            }
        }
    }
}

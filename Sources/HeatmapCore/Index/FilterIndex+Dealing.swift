extension FilterIndex {
    /// The builder's points sorted by key dealt out to their slabs, stably (each slab in key
    /// order): one pass over the sorted points lists their positions slab after slab (4 bytes
    /// a point) and counts the cells of all of them (for the whole data's summaries), then one
    /// pass a slab gathers its keys, weights, running sums, seconds and cells from those
    /// positions into the slab's own storage (no scratch copy of the points, no second pass
    /// over the slab's keys but the run starts').
    struct Dealing {
        /// The sorted points' positions, slab after slab: each slab's ascending.
        let order: UnsafeBufferPointer<UInt32>
        /// Where each slab's positions start in `order`, and their end.
        let starts: [Int]
        /// The number of distinct cells of each level 0...32 among all the sorted keys.
        let cells: [Int]

        /// Lists the positions of the sorted points by slab in `order` (room for all of them,
        /// read while this lives): a point's slab is its tag's high 16 bits where the layout is
        /// tagged, else `slabOf` at its tag (its position appended).
        ///
        /// - Complexity: O(n).
        init<Payload: SortedPayload>(
            keys: UnsafeBufferPointer<UInt64>, carried: UnsafeBufferPointer<Payload>,
            order: UnsafeMutableBufferPointer<UInt32>, layout: PayloadLayout, slabOf: [UInt16]?, counts: [Int]
        ) {
            let n = keys.count
            var starts = [0]
            for count in counts { starts.append(starts[starts.count - 1] + count) }
            var changes = [Int](repeating: 0, count: 33)
            var next = Array(starts.dropLast())
            let slabOf = slabOf ?? []
            changes.withUnsafeMutableBufferPointer { changes in
                next.withUnsafeMutableBufferPointer { next in
                    var previous = keys.first ?? 0
                    for i in 0..<n {
                        let tag = carried[i].tag(layout)
                        let s = slabOf.isEmpty ? Int(tag >> 16) : Int(slabOf[Int(tag)])
                        order[next[s]] = UInt32(truncatingIfNeeded: i)
                        next[s] += 1
                        let difference = keys[i] ^ previous
                        previous = keys[i]
                        if difference != 0 { changes[(63 - difference.leadingZeroBitCount) >> 1] += 1 }
                    }
                }
            }
            self.order = UnsafeBufferPointer(order)
            self.starts = starts
            cells = RunStarts.cellCounts(changes: changes, count: n)
        }

        /// Slab `s`'s index and seconds, gathered in one pass from the sorted points, with its
        /// codes of the one category column where `coded` (a tagged layout's: the tag's low 16
        /// bits), and its cells of `level` (those of ``CellList/init(of:level:)``) where one is asked.
        ///
        /// - Complexity: O(points of the slab), and the run starts' pass.
        func slab<Payload: SortedPayload>(
            _ s: Int, keys: UnsafeBufferPointer<UInt64>, carried: UnsafeBufferPointer<Payload>, layout: PayloadLayout,
            coded: Bool, cellsOf level: Int?
        ) -> (index: PointIndex, seconds: [UInt32], codes: [UInt16], cells: CellList?) {
            let (first, m) = (starts[s], starts[s + 1] - starts[s])
            var changes = [Int](repeating: 0, count: 33)
            // The cells of `level`: a cell closes where a key differs from the one before at
            // that level or above; its weight is the running sums' difference, as the list's.
            let (listed, shift) = (level ?? 64, UInt64(2 * min(level ?? 0, 31)))
            var cells = CellList(keys: [], weights: [])
            if level != nil {
                cells.keys.reserveCapacity(m)
                cells.weights.reserveCapacity(m)
            }
            var (slabWeights, prefix, seconds): ([Float], [Double], [UInt32]) = ([], [], [])
            var slabCodes: [UInt16] = []
            slabCodes.reserveCapacity(coded ? m : 0)
            let slabKeys = [UInt64](unsafeUninitializedCapacity: m) { slabKeys, initialized in
                slabWeights = [Float](unsafeUninitializedCapacity: m) { slabWeights, weighed in
                    prefix = [Double](unsafeUninitializedCapacity: m + 1) { prefix, summed in
                        seconds = [UInt32](unsafeUninitializedCapacity: m) { seconds, timed in
                            changes.withUnsafeMutableBufferPointer { changes in
                                var (sum, opened) = (0.0, 0.0)
                                prefix.initializeElement(at: 0, to: sum)
                                var previous = m > 0 ? keys[Int(order[first])] : 0
                                for j in 0..<m {
                                    let p = Int(order[first + j])
                                    let key = keys[p]
                                    let point = carried[p]
                                    let difference = key ^ previous
                                    if difference != 0 {
                                        let top = (63 - difference.leadingZeroBitCount) >> 1
                                        changes[top] += 1
                                        if top >= listed {
                                            cells.keys.append((previous >> shift) << shift)
                                            cells.weights.append(sum - opened)
                                            opened = sum
                                        }
                                    }
                                    previous = key
                                    slabKeys.initializeElement(at: j, to: key)
                                    slabWeights.initializeElement(at: j, to: point.weight)
                                    sum += Double(point.weight)
                                    prefix.initializeElement(at: j + 1, to: sum)
                                    seconds.initializeElement(at: j, to: point.second(layout))
                                    if coded { slabCodes.append(UInt16(truncatingIfNeeded: point.tag(layout))) }
                                }
                                if level != nil, m > 0 {
                                    cells.keys.append((previous >> shift) << shift)
                                    cells.weights.append(sum - opened)
                                }
                            }
                            timed = m
                        }
                        summed = m + 1
                    }
                    weighed = m
                }
                initialized = m
            }
            let index = PointIndex(
                sortedKeys: slabKeys, weights: slabWeights, prefix: prefix,
                cells: RunStarts.cellCounts(changes: changes, count: m))
            return (index, seconds, slabCodes, level == nil ? nil : cells)
        }

        /// Slab `s`'s codes of each column where the layout is not tagged: `codes` at the tag
        /// (the point's position appended).
        ///
        /// - Complexity: O(points of the slab) a column.
        func codes<Payload: SortedPayload>(
            _ s: Int, carried: UnsafeBufferPointer<Payload>, layout: PayloadLayout, codes: [[UInt16]]
        ) -> [[UInt16]] {
            let range = starts[s]..<starts[s + 1]
            return codes.indices.map { c in
                codes[c].withUnsafeBufferPointer { column in
                    [UInt16](unsafeUninitializedCapacity: range.count) { out, initialized in
                        for j in range {
                            out.initializeElement(
                                at: j - range.lowerBound, to: column[Int(carried[Int(order[j])].tag(layout))])
                        }
                        initialized = range.count
                    }
                }
            }
        }
    }
}

extension FilterIndex.Builder {
    /// The slabs' indexes, seconds and codes as dealt, and their cells of the coarse
    /// nodes' finest level.
    struct Slabs {
        var indexes: [PointIndex] = []
        var seconds: [[UInt32]] = []
        var codes: [[[UInt16]]] = []
        var cells: [FilterIndex.CellList] = []
    }

    /// Runs `body` with room for `count` payloads: the bytes of `times` (8 a point) where a
    /// payload is as wide, else storage of their own.
    static func withPayloads<Payload: SortedPayload, Result>(
        over times: UnsafeMutableRawBufferPointer, count: Int, as: Payload.Type,
        _ body: (UnsafeMutableBufferPointer<Payload>) -> Result
    ) -> Result {
        if MemoryLayout<Payload>.stride == 8, times.count >= count * 8, let base = times.baseAddress {
            defer { base.bindMemory(to: Int64.self, capacity: count) }
            return body(
                UnsafeMutableBufferPointer(start: base.bindMemory(to: Payload.self, capacity: count), count: count))
        }
        let storage = UnsafeMutableBufferPointer<Payload>.allocate(capacity: count)
        defer { storage.deallocate() }
        return body(storage)
    }

    /// The sorted points dealt out to their slabs (see ``FilterIndex/Dealing``), and the
    /// whole data's summaries and cell counts (as a plain index of the points finds them).
    static func dealt<Payload: SortedPayload>(
        keys: [UInt64], carried: UnsafeBufferPointer<Payload>, order: UnsafeMutableBufferPointer<UInt32>,
        layout: FilterIndex.PayloadLayout, slabbing: FilterIndex.Slabbing, codes: [[UInt16]]
    ) -> (slabs: Slabs, CellSummaries, [CoarseNode]) {
        keys.withUnsafeBufferPointer { keys in
            let dealing = FilterIndex.Dealing(
                keys: keys, carried: carried, order: order, layout: layout,
                slabOf: layout.tagged ? nil : slabbing.slabOf, counts: slabbing.counts)
            // Coarse nodes only of levels whose cells are at most half the points: a node of a
            // level where points rarely share a cell saves nothing (spread data: none at all).
            let levels = FilterIndex.coarseLevels.filter { dealing.cells[$0] <= keys.count / 2 }
            let listed = slabbing.counts.count > 2 ? levels.min() : nil
            var slabs = Slabs()
            for s in slabbing.counts.indices {
                // Tagged: the one column's codes come with the slab's pass.
                let coded = layout.tagged && !codes.isEmpty
                let slab = dealing.slab(
                    s, keys: keys, carried: carried, layout: layout, coded: coded, cellsOf: listed)
                slabs.indexes.append(slab.index)
                slabs.seconds.append(slab.seconds)
                slabs.codes.append(
                    coded
                        ? [slab.codes]
                        : layout.tagged ? [] : dealing.codes(s, carried: carried, layout: layout, codes: codes))
                if let cells = slab.cells { slabs.cells.append(cells) }
            }
            let coarse = FilterIndex.coarseNodes(slabs: slabs.indexes, levels: levels, finest: slabs.cells)
            var sums = PayloadSums(carried: carried)
            return (slabs, CellSummaries(keys: keys, sums: &sums, cells: dealing.cells), coarse)
        }
    }
}

/// The running sums of the weights the builder's sorted points carry, added up as a pass
/// reaches them: the same doubles as a prefix array of them.
struct PayloadSums<Payload: SortedPayload>: RunningSums {
    let carried: UnsafeBufferPointer<Payload>
    private var (next, sum) = (0, 0.0)

    init(carried: UnsafeBufferPointer<Payload>) {
        self.carried = carried
    }

    @inline(__always) mutating func sum(upTo k: Int) -> Double {
        while next < k {
            sum += Double(carried[next].weight)
            next += 1
        }
        return sum
    }
}

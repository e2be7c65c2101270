import Testing

@testable import HeatmapCore

/// The builder carries each point's second, slab and codes through its key sort packed into
/// 4 bytes where they fit, else in 8: whichever layout, every slab must hold exactly its
/// points, in key order, with their weights, seconds and values.
@Suite struct FilterPayloadTests {
    /// One point as appended: key, weight, second and a value a column.
    struct Point: Hashable {
        var key: UInt64
        var weight: Float
        var time: Int64
        var values: [String]
    }

    /// Points with seeded times spread over `span` seconds and `columns` category columns of
    /// `values` values each, built into slabs of `slabSize`.
    static func built(count: Int, span: Int64, columns: Int, values: Int, slabSize: Int, seed: UInt64) throws
        -> (points: [Point], index: FilterIndex)
    {
        var random = SplitMix64(seed: seed)
        var builder = FilterIndex.Builder(categoryColumns: (0..<columns).map { "c\($0)" })
        var points: [Point] = []
        for _ in 0..<count {
            let latitude = Double.random(in: -60...60, using: &random)
            let longitude = Double.random(in: -180..<180, using: &random)
            let weight = Double(Int.random(in: 0...3, using: &random))
            let time = 1_704_067_200 + Int64.random(in: 0..<span, using: &random)
            let row = (0..<columns).map { _ in "v\(Int.random(in: 0..<values, using: &random))" }
            try builder.append(latitude: latitude, longitude: longitude, intensity: weight, time: time, categories: row)
            let key = Morton.key(x: WebMercator.unitX(longitude: longitude), y: WebMercator.unitY(latitude: latitude))
            points.append(Point(key: key, weight: Float(weight), time: time, values: row))
        }
        return (points, builder.build(slabSize: slabSize))
    }

    @Test(
        "every slab holds its points in key order with their weights, seconds and values, packed or not",
        arguments: [
            // (columns, values, span): packs; packs with no column; a code too wide to pack; a
            // span too wide to pack; two columns (never packed).
            (1, 8, Int64(366 * 86_400)), (0, 1, Int64(366 * 86_400)), (1, 3000, Int64(1) << 31),
            (1, 2, Int64(1) << 32), (2, 5, Int64(366 * 86_400)),
        ])
    func slabsHoldTheirPoints(columns: Int, values: Int, span: Int64) throws {
        for (count, slabSize, seed) in [(1, 1, 1), (900, 97, 2), (5000, 600, 3)] {
            let (points, index) = try Self.built(
                count: count, span: span, columns: columns, values: values, slabSize: slabSize,
                seed: UInt64(seed) &+ UInt64(values))
            var held: [Point] = []
            for s in 0..<index.slabCount {
                let slab = index.slabs[s]
                #expect(zip(slab.keys, slab.keys.dropFirst()).allSatisfy { $0 <= $1 })
                for i in 0..<slab.count {
                    let time = index.slabTimes[s].lowerBound + Int64(index.times[s][i])
                    #expect(index.slabTimes[s].contains(time))
                    let row = index.dictionaries.indices.map { c in
                        index.dictionaries[c].values[Int(index.codes[s][c][i])]
                    }
                    held.append(Point(key: slab.keys[i], weight: slab.weights[i], time: time, values: row))
                }
            }
            let order = { (a: Point, b: Point) in (a.key, a.time, a.weight) < (b.key, b.time, b.weight) }
            #expect(held.count == points.count)
            #expect(held.sorted(by: order) == points.sorted(by: order))
        }
    }

    @Test(
        "each slab's running sums, cells and run starts, and the whole data's summaries, equal a plain index's",
        arguments: [(1, 8), (2, 5), (1, 3000)])
    func slabsAndSummariesEqualPlainIndexes(columns: Int, values: Int) throws {
        // Points at few positions (each repeated many times, over all the slabs): long runs of
        // equal keys across slabs, run starts kept, summaries of several levels.
        var random = SplitMix64(seed: UInt64(columns * 31 + values))
        let places = (0..<60).map { _ in
            (Double.random(in: -60...60, using: &random), Double.random(in: -180..<180, using: &random))
        }
        var builder = FilterIndex.Builder(categoryColumns: (0..<columns).map { "c\($0)" })
        var points: [WeightedLatLng] = []
        for _ in 0..<20_000 {
            let (latitude, longitude) = places[Int.random(in: 0..<places.count, using: &random)]
            let weight = Double.random(in: 0...3, using: &random)
            let row = (0..<columns).map { _ in "v\(Int.random(in: 0..<values, using: &random))" }
            let time = 1_704_067_200 + Int64.random(in: 0..<(366 * 86_400), using: &random)
            try builder.append(latitude: latitude, longitude: longitude, intensity: weight, time: time, categories: row)
            points.append(
                WeightedLatLng(coordinate: Coordinate(latitude: latitude, longitude: longitude), intensity: weight))
        }
        let index = builder.build(slabSize: 3000)
        #expect(index.slabCount > 4)
        for slab in index.slabs {
            let plain = PointIndex(sortedKeys: slab.keys, weights: slab.weights, summarised: false)
            #expect(slab.prefix == plain.prefix)
            #expect(slab.cellCounts == plain.cellCounts)
            #expect(slab.runStarts.starts == plain.runStarts.starts && slab.runStarts.ranges == plain.runStarts.ranges)
            #expect(slab.runStarts.byteCount > 0)
        }
        let plain = try PointIndex(points: points)
        #expect(index.summaries.entries == plain.summaries.entries && index.summaries.ranges == plain.summaries.ranges)
        #expect(index.summaries.byteCount > 0)
        // The coarse nodes from the cells the slabs' pass listed equal those from the slabs' keys.
        let levels = FilterIndex.coarseLevels.filter { plain.cellCounts[$0] <= points.count / 2 }
        let nodes = FilterIndex.coarseNodes(slabs: index.slabs, levels: levels)
        #expect(!nodes.isEmpty && nodes.count == index.coarseNodes.count)
        for (node, built) in zip(nodes, index.coarseNodes) {
            #expect(node.slabs == built.slabs && node.level == built.level)
            #expect(node.index.keys == built.index.keys && node.index.weights == built.index.weights)
        }
    }

    @Test("a packed payload gives back the second, slab and code it was given")
    func packedRoundTrip() {
        for (slabs, span, values) in [
            (1, Int64(0), 1), (4, Int64(8_000_000), 8), (65_535, Int64(1), 1), (3, (Int64(1) << 18) - 1, 4096),
        ] {
            let layout = FilterIndex.PayloadLayout(slabs: slabs, span: span, columns: 1, values: values)
            #expect(layout.packs)
            for (second, slab, code) in [(0, 0, 0), (span, slabs - 1, values - 1), (span / 2, slabs / 2, values / 3)] {
                let point = FilterIndex.PackedPoint(
                    weight: 2.5, second: UInt32(second), slab: UInt32(slab), code: UInt32(code), position: 0,
                    layout: layout)
                #expect(point.weight == 2.5)
                #expect(point.second(layout) == UInt32(second))
                #expect(point.tag(layout) == UInt32(slab) << 16 | UInt32(code))
            }
        }
        #expect(!FilterIndex.PayloadLayout(slabs: 4, span: Int64(1) << 31, columns: 1, values: 3000).packs)
        #expect(!FilterIndex.PayloadLayout(slabs: 4, span: 100, columns: 2, values: 2).packs)
    }
}

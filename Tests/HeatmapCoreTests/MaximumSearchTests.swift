import Testing

@testable import HeatmapCore

/// The one search for M(z) finds the brute-force maximum on seeded random data (clusters, some
/// across the antimeridian and at the top of the map, and lone points), zooms 0 to 22, scales 1
/// to 3, radii 10 to 50; and finds the same value to the bit whatever its plan: over the index,
/// and over the index's cells as a database's would come (summaries from several levels, a
/// threshold, from rows), as any other source's come (gathered pixels), and as a live layer's
/// (two indexes).
@Suite struct MaximumSearchTests {
    /// Tight clusters (some on the antimeridian, one at the top edge of the map) and a
    /// sprinkle of lone points, so that fine zooms have both crowded and empty cells.
    static func clusters(seed: UInt64) -> [WeightedLatLng] {
        var random = SplitMix64(seed: seed)
        let centres = [(40.0, -100.0), (-33.9, 151.2), (10.0, 179.9999), (10.0, -179.9999), (85.05, 20.0), (0.0, 0.0)]
        var points: [WeightedLatLng] = []
        for (i, centre) in centres.enumerated() {
            let spread = [0.0005, 0.002, 0.01][i % 3]
            for _ in 0..<150 {
                let lat = min(85.05, max(-85.05, centre.0 + (Double.random(in: 0..<1, using: &random) - 0.5) * spread))
                var lng = centre.1 + (Double.random(in: 0..<1, using: &random) - 0.5) * spread
                if lng >= 180 { lng -= 360 }
                if lng < -180 { lng += 360 }
                points.append(
                    WeightedLatLng(
                        coordinate: Coordinate(latitude: lat, longitude: lng),
                        intensity: 0.5 + Double.random(in: 0..<1, using: &random) * 1.5))
            }
        }
        for _ in 0..<200 {
            points.append(
                WeightedLatLng(
                    coordinate: Coordinate(
                        latitude: (Double.random(in: 0..<1, using: &random) - 0.5) * 160,
                        longitude: (Double.random(in: 0..<1, using: &random) - 0.5) * 360),
                    intensity: Double.random(in: 0..<1, using: &random) * 2))
        }
        return points
    }

    /// The index with another source's costs: the search plans as it would for that source.
    struct Costed: CellSource {
        typealias Failure = Never
        let index: PointIndex
        let cellCosts: CellCosts
        func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) {
            index.addWeights(of: query, into: &sink)
        }
        func occupiedCells(_ query: CellQuery) -> OccupiedCells { index.occupiedCells(query) }
    }

    /// The index as a source that answers nothing but pixels.
    struct PixelsOnly: WeightSource {
        typealias Failure = Never
        let index: PointIndex
        func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) {
            index.addWeights(of: query, into: &sink)
        }
    }

    /// M(z) from every plan's kind of source over `index`.
    static func maxima(_ index: PointIndex, space: PixelSpace, kernel: GaussianKernel) -> [(String, Float)] {
        let costs: [(String, CellCosts)] = [
            ("summaries from 16", CellCosts(summarized: 16, isRemote: true)),
            ("summaries from 20", CellCosts(summarized: 20, isRemote: true)),
            ("summaries from 24", CellCosts(summarized: 24, isRemote: true)),
            ("rows", CellCosts(isRemote: true)),
            ("summaries from 18, round trips", CellCosts(summarized: 18, isRemote: true, questionCells: 4096)),
            ("rows, round trips", CellCosts(isRemote: true, questionCells: 4096)),
            ("local, summaries from 18", CellCosts(summarized: 18)),
            ("local, uncounted", CellCosts()),
        ]
        return costs.map {
            ($0.0, Costed(index: index, cellCosts: $0.1).maximumIntensity(space: space, kernel: kernel))
        }
            + [("pixels only", PixelsOnly(index: index).maximumIntensity(space: space, kernel: kernel))]
    }

    @Test("the brute-force maximum, the same from every kind of source", arguments: 0..<16)
    func property(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x3D + seed)
        let zoom = [0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 22][Int(seed)]
        let scale = Int.random(in: 1...3, using: &random)
        // R up to 60 pixels, for the brute force's sake: radii 10...50 at scale 1, less at 2 and 3.
        let radius = Int.random(in: 10...(60 / scale), using: &random)
        let points = Self.clusters(seed: seed).filter { _ in Double.random(in: 0..<1, using: &random) < 0.5 }
        let index = try PointIndex(points: points)
        let space = try PixelSpace(zoom: zoom, scale: scale)
        let kernel = GaussianKernel(radius: radius * scale)
        let m = index.maximumIntensity(space: space, kernel: kernel)
        let reference = ReferenceRenderer.maximum(of: points, space: space, radius: radius * scale)
        let name = "seed \(seed): zoom \(zoom) scale \(scale) radius \(radius)"
        #expect(reference > 0)
        #expect(abs(Double(m) - reference) <= 1e-5 * reference, "\(name): M \(m), brute force \(reference)")
        for (kind, value) in Self.maxima(index, space: space, kernel: kernel) {
            #expect(value == m, "\(name), \(kind)")
        }
    }

    @Test("the plans: levels coarse to fine above the pixels, taps falling from 1, a margin above 1")
    func plans() throws {
        for zoom in [0, 3, 9, 16, 22] {
            for scale in 1...3 {
                let space = try PixelSpace(zoom: zoom, scale: scale)
                for radius in [10, 20, 50, 128] {
                    let kernel = GaussianKernel(radius: radius * scale)
                    for costs in [CellCosts(), CellCosts(summarized: 16, isRemote: true), CellCosts(isRemote: true)] {
                        let plan = MaximumPlan(space: space, kernel: kernel, costs: costs)
                        let levels = plan.stages.map(\.level)
                        #expect(levels == levels.sorted(by: >) && Set(levels).count == levels.count, "\(levels)")
                        for stage in plan.stages {
                            #expect(stage.taps.first == 1 && stage.taps == stage.taps.sorted(by: >=))
                            #expect(1 << (32 - stage.level) > 4 * stage.reach + 1, "zoom \(zoom): \(levels)")
                            // Cells wider than a pixel: no pixel spans two of the last level's.
                            #expect((1 << stage.level) * scale > 1 << (24 - zoom))
                        }
                        #expect(plan.margin(additions: 8) > 1 && plan.margin(additions: 8) < 1.001)
                    }
                }
            }
        }
    }

    @Test("dives ask every level of the plan, or skip levels where a question costs a round trip")
    func diveLevels() throws {
        let index = try PointIndex(points: Self.clusters(seed: 1))
        let space = try PixelSpace(zoom: 7, scale: 1)
        let kernel = GaussianKernel(radius: 20)
        func asked(_ costs: CellCosts, from start: Int) -> [Int] {
            let plan = MaximumPlan(space: space, kernel: kernel, costs: costs)
            let run = MaximumSearch.Run(
                source: Costed(index: index, cellCosts: costs), space: space, kernel: kernel, plan: plan)
            var (level, levels) = (start, [Int]())
            while let next = run.diveLevel(below: level, cells: 3) { (level, levels) = (next, levels + [next]) }
            return levels
        }
        let summaries = CellCosts(summarized: 18, isRemote: true)
        let levels = MaximumPlan(space: space, kernel: kernel, costs: summaries).stages.map(\.level)
        #expect(levels == [24, 22, 21, 19, 18])
        #expect(asked(summaries, from: 26) == levels)
        // 3 cells of level 26 hold at most 3 · 4^5 = 3,072 of level 21, then 192 of level 18.
        var trips = summaries
        trips.questionCells = 4096
        #expect(asked(trips, from: 26) == [21, 18])
        // From rows, a question reads the area's rows whatever the level: the last at once.
        let rows = CellCosts(isRemote: true, questionCells: 4096)
        let rowLevels = MaximumPlan(space: space, kernel: kernel, costs: rows).stages.map(\.level)
        #expect(rowLevels.count > 2 && asked(rows, from: rowLevels[0]) == rowLevels.suffix(1))
    }

    @Test("summaries ending at cells half as wide as the first fine level's: the last level, no rows read")
    func summariesBetweenFineLevels() throws {
        let index = try PointIndex(points: Self.clusters(seed: 2))
        let kernel = GaussianKernel(radius: 20)
        for zoom in 5...14 {
            let space = try PixelSpace(zoom: zoom, scale: 1)
            // From a database, cells of 16 pixels first (level 28 − zoom); the summaries end at 8.
            let costs = CellCosts(summarized: 27 - zoom, isRemote: true, questionCells: 4096)
            let levels = MaximumPlan(space: space, kernel: kernel, costs: costs).stages.map(\.level)
            #expect(levels.suffix(2) == [28 - zoom, 27 - zoom], "zoom \(zoom): \(levels)")
            let m = Costed(index: index, cellCosts: costs).maximumIntensity(space: space, kernel: kernel)
            #expect(m == index.maximumIntensity(space: space, kernel: kernel), "zoom \(zoom)")
        }
    }

    @Test("coarse levels unless most points are alone in fine cells as spread out at the coarse scale")
    func coarseLevels() throws {
        let space = try PixelSpace(zoom: 12, scale: 1)
        let kernel = GaussianKernel(radius: 20)
        let uncounted = MaximumPlan(space: space, kernel: kernel, costs: CellCosts()).stages.map(\.level)
        let (coarse, first) = (uncounted[0], uncounted[0] - 4)
        #expect(uncounted.contains(first) && uncounted.count > 2, "\(uncounted)")
        func levels(fine: Int, coarse coarseCells: Int) -> [Int] {
            var cells = [Int](repeating: 0, count: 33)
            (cells[first], cells[coarse]) = (fine, coarseCells)
            let costs = CellCosts(occupied: (cells, 1000))
            return MaximumPlan(space: space, kernel: kernel, costs: costs).stages.map(\.level)
        }
        // Points in clusters at the coarse scale, alone in their fine cells or not.
        #expect(levels(fine: 600, coarse: 100) == uncounted)
        #expect(levels(fine: 400, coarse: 100) == uncounted)
        // Alone and as spread out: the plan starts at the fine level.
        #expect(levels(fine: 600, coarse: 200) == Array(uncounted.drop { $0 > first }))
        // Not alone: coarse levels, however many cells.
        #expect(levels(fine: 400, coarse: 300) == uncounted)
    }

    @Test("no weight gives 0 and one point gives its weight, across the antimeridian", arguments: [0, 3, 16, 22])
    func edgeCases(zoom: Int) throws {
        let space = try PixelSpace(zoom: zoom, scale: 1)
        let kernel = GaussianKernel(radius: 20)
        let nothing = try PointIndex(points: [
            WeightedLatLng(coordinate: Coordinate(latitude: 10, longitude: 179.9999), intensity: 0),
            WeightedLatLng(coordinate: Coordinate(latitude: -40, longitude: 20), intensity: 0),
        ])
        let one = try PointIndex(points: [
            WeightedLatLng(coordinate: Coordinate(latitude: 10, longitude: 179.9999), intensity: 2.5)
        ])
        #expect(nothing.maximumIntensity(space: space, kernel: kernel) == 0)
        #expect(one.maximumIntensity(space: space, kernel: kernel) == 2.5)
    }
}

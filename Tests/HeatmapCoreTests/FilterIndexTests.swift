import Testing

@testable import HeatmapCore

/// A filtered data set draws and scales exactly as the points it keeps would on their own.
@Suite struct FilterIndexTests {
    struct Sample {
        var point: WeightedLatLng
        var time: Int64
        var kind: String
        var area: String
    }

    static let start: Int64 = 1_704_067_200  // 2024-01-01T00:00:00Z
    static let kinds = ["theft", "burglary", "assault", "fraud", "arson"]
    static let areas = ["north", "south", "east"]

    /// Points clustered around a few centres (one near the antimeridian), over one year, some
    /// sharing a second, with two category columns.
    static func samples(count: Int, seed: UInt64) -> [Sample] {
        var random = SplitMix64(seed: seed)
        let centres = [(-37.81, 144.96), (51.5, -0.12), (-16.5, 179.99), (40.7, -74.0)]
        var times: [Int64] = []
        return (0..<count).map { i in
            let centre = centres[Int.random(in: 0..<centres.count, using: &random)]
            let spread = [0.0005, 0.003, 1.0][Int.random(in: 0..<3, using: &random)]
            let latitude = centre.0 + Double.random(in: -spread...spread, using: &random)
            let longitude = centre.1 + Double.random(in: -spread...spread, using: &random)
            let time =
                i > 0 && Int.random(in: 0..<10, using: &random) == 0
                ? times[Int.random(in: 0..<times.count, using: &random)]
                : start + Int64.random(in: 0..<(366 * 86_400), using: &random)
            times.append(time)
            return Sample(
                point: WeightedLatLng(
                    coordinate: Coordinate(latitude: latitude, longitude: longitude),
                    intensity: Double(Int.random(in: 0...4, using: &random))),
                time: time, kind: kinds[Int.random(in: 0..<kinds.count, using: &random)],
                area: areas[Int.random(in: 0..<areas.count, using: &random)])
        }
    }

    static func index(_ samples: [Sample], slabSize: Int, continuing dictionaries: [CategoryDictionary]? = nil)
        throws -> FilterIndex
    {
        var builder =
            dictionaries.map { FilterIndex.Builder(dictionaries: $0) }
            ?? FilterIndex.Builder(categoryColumns: ["kind", "area"])
        for s in samples {
            try builder.append(
                latitude: s.point.coordinate.latitude, longitude: s.point.coordinate.longitude,
                intensity: s.point.intensity, time: s.time, categories: [s.kind, s.area])
        }
        return builder.build(slabSize: slabSize)
    }

    /// The filters tried: windows of an hour around a point's second, a month, open ends, a
    /// single instant and all time; with and without categories.
    static func filters(_ samples: [Sample]) throws -> [(window: TimeWindow, categories: [CategorySelection])] {
        let instant = samples[17].time
        let windows = [
            TimeWindow.all, try TimeWindow(parsing: "2024-03-01/2024-04-01"),
            try TimeWindow(parsing: "../2024-02-10T12:00Z"),
            try TimeWindow(parsing: "2024-11-20T00:00:00+01:00/.."), TimeWindow(start: instant, end: instant + 1),
            TimeWindow(start: instant - 1800, end: instant + 1800),
        ]
        let selections: [[CategorySelection]] = [
            [], [CategorySelection(column: "kind", values: ["theft", "arson"])],
            [
                CategorySelection(column: "kind", values: ["fraud"]),
                CategorySelection(column: "area", values: ["south"]),
            ],
        ]
        return windows.flatMap { w in selections.map { (w, $0) } }
    }

    static func kept(_ samples: [Sample], _ window: TimeWindow, _ categories: [CategorySelection]) -> [WeightedLatLng] {
        samples.filter { s in
            window.contains(s.time)
                && categories.allSatisfy { c in c.values.contains(c.column == "kind" ? s.kind : s.area) }
        }.map(\.point)
    }

    /// Compares the filtered intensity of two tiles per zoom (one holding a kept point and its
    /// eastern neighbour) and M(z) with brute force.
    static func expectExact(
        _ source: FilteredPoints, kept: [WeightedLatLng], zooms: [Int], label: String, maximum: Bool = true
    ) throws {
        for zoom in zooms {
            let space = try PixelSpace(zoom: zoom, scale: 1)
            let kernel = GaussianKernel(radius: 20)
            if let point = kept.first(where: { $0.intensity > 0 }) {
                let (px, py) = space.pixel(of: point.coordinate)
                let (tx, ty) = (px / space.tileSize, py / space.tileSize)
                for x in [tx, (tx + 1) % space.tilesAcross] {
                    let rect = PixelRect(tileX: x, y: ty, in: space)
                    let grid = source.intensity(in: rect, space: space, kernel: kernel)
                    let reference = ReferenceRenderer.intensity(of: kept, in: rect, space: space, radius: 20)
                    let top = max(1e-9, reference.max() ?? 0)
                    let worst = zip(grid.values, reference).map { abs(Double($0) - $1) }.max() ?? 0
                    #expect(worst <= 1e-5 * top, "\(label) zoom \(zoom) tile \(x),\(ty): off by \(worst) of \(top)")
                }
            } else {
                #expect(source.isEmpty, "\(label): nothing kept, but the source holds weight")
            }
            guard maximum else { continue }
            let m = Double(source.maximumIntensity(space: space, kernel: kernel))
            let reference = ReferenceRenderer.maximum(of: kept, space: space, radius: 20)
            #expect(abs(m - reference) <= 1e-5 * max(reference, 1e-9), "\(label) zoom \(zoom): M \(m) ≠ \(reference)")
        }
    }

    @Test("filtered intensity and M(z) equal brute force over the points kept", arguments: [3, 8, 12, 16])
    func exact(zoom: Int) throws {
        let samples = Self.samples(count: 1200, seed: 28)
        let index = try Self.index(samples, slabSize: 97)
        #expect(index.slabCount > 8)
        #expect(!index.coarseNodes.isEmpty)
        for (window, categories) in try Self.filters(samples) {
            let filter = try PointFilter(window: window, categories: categories, dictionaries: index.dictionaries)
            try Self.expectExact(
                index.filtered(by: filter), kept: Self.kept(samples, window, categories), zooms: [zoom],
                label: "\(window) \(categories)")
        }
    }

    @Test("live points added: a file's filtered points and the live ones' draw as the union", arguments: [4, 14])
    func live(zoom: Int) throws {
        let samples = Self.samples(count: 900, seed: 7)
        let file = try Self.index(Array(samples[..<600]), slabSize: 64)
        let live = try Self.index(Array(samples[600...]), slabSize: 64, continuing: file.dictionaries)
        for (window, categories) in try Self.filters(samples) {
            // Codes continue the file's dictionaries, so one filter serves both.
            let filter = try PointFilter(window: window, categories: categories, dictionaries: live.dictionaries)
            let both = file.filtered(by: filter).merged(with: live.filtered(by: filter))
            try Self.expectExact(
                both, kept: Self.kept(samples, window, categories), zooms: [zoom], label: "live \(window) \(categories)"
            )
        }
    }

    @Test("scale-of=all: the whole filter index's M(z) is the unfiltered index's", arguments: [3, 9, 15])
    func scaleOfAll(zoom: Int) throws {
        let samples = Self.samples(count: 1000, seed: 5)
        let index = try Self.index(samples, slabSize: 50)
        let plain = try PointIndex(points: samples.map(\.point))
        let space = try PixelSpace(zoom: zoom, scale: 1)
        let kernel = GaussianKernel(radius: 20)
        let all = index.filtered(by: .all)
        let filtered = Double(all.maximumIntensity(space: space, kernel: kernel))
        let unfiltered = Double(plain.maximumIntensity(space: space, kernel: kernel))
        // Coarse nodes sum a cell's weights once, in another order: float rounding apart.
        #expect(abs(filtered - unfiltered) <= 1e-6 * unfiltered, "\(filtered) ≠ \(unfiltered)")
        #expect(all.parts.count == index.slabCount)
    }

    @Test("a filter that selects nothing leaves an empty source")
    func selectsNothing() throws {
        let samples = Self.samples(count: 300, seed: 2)
        let index = try Self.index(samples, slabSize: 40)
        let filter = try PointFilter(
            window: TimeWindow(parsing: "2030-01-01/.."), categories: [], dictionaries: index.dictionaries)
        let source = index.filtered(by: filter)
        #expect(source.isEmpty)
        let space = try PixelSpace(zoom: 5, scale: 1)
        #expect(source.maximumIntensity(space: space, kernel: GaussianKernel(radius: 20)) == 0)
    }

    @Test("slabs never split a second, and hold every point once")
    func slabs() throws {
        let samples = Self.samples(count: 700, seed: 11)
        let index = try Self.index(samples, slabSize: 10)
        #expect(index.count == samples.count)
        for s in 1..<index.slabCount {
            #expect(index.slabTimes[s - 1].upperBound < index.slabTimes[s].lowerBound)
        }
        #expect(index.timeRange == samples.map(\.time).min()!...samples.map(\.time).max()!)
        #expect(index.dictionaries[0].counts.reduce(0, +) == samples.count)
    }
}

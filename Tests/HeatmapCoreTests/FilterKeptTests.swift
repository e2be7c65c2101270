import Testing

@testable import HeatmapCore

/// What a filter keeps, counted and bounded (a render's `kept` and extent) and timed (where an
/// animation's open ends close): the points in its window and categories that weigh something,
/// as a brute-force pass over the samples finds them. The samples hold points of weight 0,
/// which are not counted: they draw nothing.
@Suite struct FilterKeptTests {
    typealias Sample = FilterIndexTests.Sample

    /// The samples `window` and `categories` keep with a positive weight.
    static func drawn(_ samples: [Sample], _ window: TimeWindow, _ categories: [CategorySelection]) -> [Sample] {
        samples.filter { s in
            s.point.intensity > 0 && window.contains(s.time)
                && categories.allSatisfy { c in c.values.contains(c.column == "kind" ? s.kind : s.area) }
        }
    }

    /// Expects `points`' count, latitudes and longitudes to be those of `drawn`'s points.
    static func expectDrawn(_ points: FilteredPoints, _ drawn: [Sample], label: String) throws {
        let found = points.drawnPoints
        #expect(found.count == drawn.count, "\(label)")
        guard !drawn.isEmpty else {
            #expect(found.indexes.allSatisfy { $0.count == 0 }, "\(label)")
            return
        }
        let brute = try PointIndex(points: drawn.map(\.point))
        let latitudes = found.indexes.compactMap(\.latitudeRange)
        #expect(latitudes.map(\.lowerBound).min() == brute.latitudeRange?.lowerBound, "\(label)")
        #expect(latitudes.map(\.upperBound).max() == brute.latitudeRange?.upperBound, "\(label)")
        let longitudes = PointIndex.longitudeInterval(of: found.indexes)
        let wanted = PointIndex.longitudeInterval(of: [brute])
        #expect(longitudes?.west == wanted?.west && longitudes?.east == wanted?.east, "\(label)")
    }

    @Test("the points kept are counted and bounded as brute force finds them, weight 0 left out")
    func countAndExtent() throws {
        let samples = FilterIndexTests.samples(count: 1500, seed: 2828)
        #expect(samples.contains { $0.point.intensity == 0 })
        let index = try FilterIndexTests.index(samples, slabSize: 61)
        for (window, categories) in try FilterIndexTests.filters(samples) {
            let filter = try PointFilter(window: window, categories: categories, dictionaries: index.dictionaries)
            try Self.expectDrawn(
                index.filtered(by: filter), Self.drawn(samples, window, categories), label: "\(window) \(categories)")
        }
    }

    @Test("with live points: the file's kept points and the live ones', counted and bounded as one")
    func liveCountAndExtent() throws {
        let samples = FilterIndexTests.samples(count: 1100, seed: 2829)
        let file = try FilterIndexTests.index(Array(samples[..<700]), slabSize: 50)
        let live = try FilterIndexTests.index(Array(samples[700...]), slabSize: 50, continuing: file.dictionaries)
        for (window, categories) in try FilterIndexTests.filters(samples) {
            let filter = try PointFilter(window: window, categories: categories, dictionaries: live.dictionaries)
            try Self.expectDrawn(
                file.filtered(by: filter).merged(with: live.filtered(by: filter)),
                Self.drawn(samples, window, categories), label: "live \(window) \(categories)")
        }
    }

    @Test("a filter's time range is its first and last drawn point's second, nil when it keeps none")
    func timeRange() throws {
        let samples = FilterIndexTests.samples(count: 1300, seed: 2830)
        let index = try FilterIndexTests.index(samples, slabSize: 43)
        var filters = try FilterIndexTests.filters(samples)
        filters.append((try TimeWindow(parsing: "2030-01-01/.."), []))
        filters.append((.all, [CategorySelection(column: "kind", values: ["arson"])]))
        for (window, categories) in filters {
            let filter = try PointFilter(window: window, categories: categories, dictionaries: index.dictionaries)
            let times = Self.drawn(samples, window, categories).map(\.time)
            let wanted = times.min().flatMap { low in times.max().map { low...$0 } }
            #expect(index.timeRange(keeping: filter) == wanted, "\(window) \(categories)")
        }
    }

    @Test("a category whose points cluster in a few days: its range, not the data's")
    func categoryInFewDays() throws {
        let samples = FilterIndexTests.samples(count: 800, seed: 2831)
        let rare = (0..<30).map { i in
            Sample(
                point: WeightedLatLng(coordinate: Coordinate(latitude: -37.8, longitude: 144.9), intensity: 1),
                time: FilterIndexTests.start + 100 * 86_400 + Int64(i) * 3_600, kind: "rare", area: "north")
        }
        // One rare point of weight 0, long before: it draws nothing, so the range starts later.
        let silent = Sample(
            point: WeightedLatLng(coordinate: Coordinate(latitude: -37.8, longitude: 144.9), intensity: 0),
            time: FilterIndexTests.start + 86_400, kind: "rare", area: "north")
        let index = try FilterIndexTests.index(samples + rare + [silent], slabSize: 40)
        let filter = try PointFilter(
            window: .all, categories: [CategorySelection(column: "kind", values: ["rare"])],
            dictionaries: index.dictionaries)
        #expect(index.timeRange(keeping: filter) == rare[0].time...rare[29].time)
        let all = try #require(index.timeRange)
        #expect(all.lowerBound < rare[0].time && all.upperBound > rare[29].time)
    }
}

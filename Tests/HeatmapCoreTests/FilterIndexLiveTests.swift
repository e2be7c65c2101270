import Testing

@testable import HeatmapCore

/// Live points joining a file's filter index: batches read on their own (their own codes)
/// appended to a builder that continues the file's dictionaries draw, with the file's
/// points, exactly as the points kept would; and a batch tells which filters it alters.
@Suite struct FilterIndexLiveTests {
    typealias Samples = FilterIndexTests

    @Test("batches of their own codes appended: the file's and live points draw as the union", arguments: [5, 13])
    func appended(zoom: Int) throws {
        let samples = Samples.samples(count: 1000, seed: 31)
        let file = try Samples.index(Array(samples[..<600]), slabSize: 64)
        // Two bodies, each read alone: codes of their own, in their own order.
        let first = try Samples.index(Array(samples[600..<800]).reversed(), slabSize: 32)
        let second = try Samples.index(Array(samples[800...]), slabSize: 4096)
        var builder = FilterIndex.Builder(dictionaries: file.dictionaries)
        try builder.append(contentsOf: first)
        let once = builder.build()
        // As a server does on the next body: the points added so far again, then the body.
        builder = FilterIndex.Builder(dictionaries: file.dictionaries)
        try builder.append(contentsOf: once)
        try builder.append(contentsOf: second)
        let live = builder.build()
        #expect(live.count == 400)
        #expect(live.dictionaries[0].counts.reduce(0, +) == samples.count)
        #expect(
            Array(live.dictionaries[0].values.prefix(file.dictionaries[0].values.count)) == file.dictionaries[0].values)
        for (window, categories) in try Samples.filters(samples) {
            let filter = try PointFilter(window: window, categories: categories, dictionaries: live.dictionaries)
            let both = file.filtered(by: filter).merged(with: live.filtered(by: filter))
            try Samples.expectExact(
                both, kept: Samples.kept(samples, window, categories), zooms: [zoom],
                label: "appended \(window) \(categories)")
            let reached = !Samples.kept(Array(samples[800...]), window, categories).filter { $0.intensity > 0 }.isEmpty
            #expect(second.reaches(filter, codedBy: live.dictionaries) == reached, "\(window) \(categories)")
        }
    }

    @Test("a filter resolved before new values came keeps none of them, and never traps")
    func shorterMask() throws {
        let samples = Samples.samples(count: 300, seed: 9)
        var builder = FilterIndex.Builder(categoryColumns: ["kind", "area"])
        try builder.append(
            latitude: 1, longitude: 2, intensity: 1, time: Samples.start, categories: ["theft", "north"])
        let file = builder.build()
        let old = try PointFilter(
            window: .all, categories: [CategorySelection(column: "kind", values: ["theft"])],
            dictionaries: file.dictionaries)
        let live = try Samples.index(samples, slabSize: 50, continuing: file.dictionaries)
        let kept = live.filtered(by: old)
        let theft = samples.filter { $0.kind == "theft" && $0.point.intensity > 0 }
        #expect(kept.totalWeight == theft.reduce(0) { $0 + $1.point.intensity })
    }

    @Test("every point kept: coarse tiles come from the whole data's summaries, as the plain index draws them")
    func wholeSummaries() throws {
        let samples = Samples.samples(count: 3000, seed: 44)
        let index = try Samples.index(samples, slabSize: 300)
        let plain = try PointIndex(points: samples.map(\.point))
        let all = index.filtered(by: .all)
        #expect(all.whole != nil && !index.slabs.contains { $0.summaries.byteCount > 0 })
        let extra = try Samples.index(Samples.samples(count: 200, seed: 45), slabSize: 50)
        let live = all.merged(with: extra.filtered(by: .all))
        let both = try PointIndex(points: (samples + Samples.samples(count: 200, seed: 45)).map(\.point))
        var summarised = 0
        for zoom in [0, 2, 4, 6, 8] {
            let space = try PixelSpace(zoom: zoom, scale: 1)
            guard let level = space.pixelLevel, index.summaries.summary(level: level) != nil else { continue }
            summarised += 1
            let kernel = GaussianKernel(radius: 20)
            let point = samples[0].point.coordinate
            let (px, py) = space.pixel(of: point)
            let rect = PixelRect(tileX: px / space.tileSize, y: py / space.tileSize, in: space)
            #expect(
                all.intensity(in: rect, space: space, kernel: kernel).values
                    == plain.intensity(in: rect, space: space, kernel: kernel).values, "zoom \(zoom)")
            let drawn = live.intensity(in: rect, space: space, kernel: kernel).values
            let reference = both.intensity(in: rect, space: space, kernel: kernel).values
            let worst = zip(drawn, reference).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= 1e-5 * (reference.max() ?? 1), "zoom \(zoom) with live points: off by \(worst)")
        }
        #expect(summarised > 0)
    }
}

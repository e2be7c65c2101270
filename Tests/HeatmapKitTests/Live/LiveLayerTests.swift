import Foundation
import HeatmapCore
import Testing

@testable import HeatmapKit

@Suite struct LiveLayerTests {
    /// Points near Melbourne and across the antimeridian, whole weights (so every sum is exact
    /// and the live layer must equal a layer built from scratch bit for bit).
    static func points(_ count: Int, _ random: inout SplitMix64, wholeWeights: Bool = true) -> [WeightedLatLng] {
        (0..<count).map { i in
            let (lat, lng) = i % 3 == 0 ? (-16.0, 179.9) : (-37.8, 145.0)
            let coordinate = Coordinate(
                latitude: lat + Double.random(in: -0.5...0.5, using: &random),
                longitude: lng + Double.random(in: -0.5...0.5, using: &random))
            let weight =
                wholeWeights ? Double(Int.random(in: 1...3, using: &random)) : .random(in: 0.1...3, using: &random)
            return WeightedLatLng(coordinate: coordinate, intensity: weight)
        }
    }

    /// Tiles that hold the points at a few zooms (the antimeridian's on both sides).
    static let tiles: [(x: Int, y: Int, zoom: Int)] = [(0, 0, 0), (7, 4, 3), (0, 4, 3), (57, 39, 6), (63, 35, 6)]

    @Test("after seeded appends and removals, tiles and M(z) equal a layer built afresh and the brute-force sum")
    func randomChanges() throws {
        var random = SplitMix64(seed: 13)
        var current = Self.points(200, &random)
        let live = HeatmapTileLayer(weightedData: current)
        for step in 0..<8 {
            if step % 3 == 2, current.count > 40 {
                var picked: [WeightedLatLng] = []
                for _ in 0..<Int.random(in: 1...30, using: &random) {
                    picked.append(current.remove(at: Int.random(in: 0..<current.count, using: &random)))
                }
                try live.remove(picked)
            } else {
                let added = Self.points(Int.random(in: 1...80, using: &random), &random)
                current += added
                let change = try live.add(added)
                #expect(change.count == added.count)
            }
            #expect(live.pointCount == current.count)
            let fresh = HeatmapTileLayer(weightedData: current)
            for t in Self.tiles {
                #expect(
                    try live.intensity(x: t.x, y: t.y, zoom: t.zoom)?.values
                        == fresh.intensity(x: t.x, y: t.y, zoom: t.zoom)?.values)
                #expect(try live.normalization(zoom: t.zoom) == fresh.normalization(zoom: t.zoom))
                #expect(try live.tileFor(x: t.x, y: t.y, zoom: t.zoom) == fresh.tileFor(x: t.x, y: t.y, zoom: t.zoom))
            }
            // The brute-force definition, at zoom 3.
            let space = try PixelSpace(zoom: 3, scale: 1)
            let reference = ReferenceRenderer.intensity(
                of: current, in: PixelRect(tileX: 7, y: 4, in: space), space: space, radius: 20)
            let grid = try #require(try live.intensity(x: 7, y: 4, zoom: 3))
            let largest = reference.max() ?? 1
            #expect(zip(grid.values, reference).allSatisfy { abs(Double($0) - $1) <= 1e-5 * largest })
            let maximum = ReferenceRenderer.maximum(of: current, space: space, radius: 20)
            #expect(abs(try live.normalization(zoom: 3) - maximum) <= 1e-5 * maximum)
        }
    }

    @Test("with fractional weights the live layer agrees with a fresh one to float rounding")
    func fractionalWeights() throws {
        var random = SplitMix64(seed: 7)
        var current = Self.points(300, &random, wholeWeights: false)
        let live = HeatmapTileLayer(weightedData: current)
        let added = Self.points(100, &random, wholeWeights: false)
        try live.add(added)
        current += added
        let removed = Array(current[10..<60])
        current.removeSubrange(10..<60)
        try live.remove(removed)
        let fresh = HeatmapTileLayer(weightedData: current)
        for t in Self.tiles {
            let a = try #require(try live.intensity(x: t.x, y: t.y, zoom: t.zoom))
            let b = try #require(try fresh.intensity(x: t.x, y: t.y, zoom: t.zoom))
            let scale = Double(b.maximum)
            #expect(zip(a.values, b.values).allSatisfy { abs(Double($0) - Double($1)) <= 1e-5 * scale })
            let (m, n) = (try live.normalization(zoom: t.zoom), try fresh.normalization(zoom: t.zoom))
            #expect(abs(m - n) <= 1e-5 * n)
        }
    }

    @Test("a point not in the layer is an error naming it, and nothing is removed")
    func missingPoint() throws {
        let points = Fixtures.cluster(latitude: -37.8, longitude: 144.9)
        let layer = HeatmapTileLayer(weightedData: points)
        let before = try layer.tileFor(x: 115, y: 78, zoom: 7)
        let stranger = WeightedLatLng(coordinate: Coordinate(latitude: 10, longitude: 10), intensity: 1)
        let wrongWeight = WeightedLatLng(coordinate: points[0].coordinate, intensity: points[0].intensity + 1)
        for list in [[points[1], stranger], [points[2], wrongWeight]] {
            #expect {
                try layer.remove(list)
            } throws: { error in
                guard case HeatmapError.invalidPoint(let index, let reason) = error else { return false }
                return index == 1 && reason.contains("to remove")
            }
        }
        #expect(layer.pointCount == points.count)
        #expect(try layer.tileFor(x: 115, y: 78, zoom: 7) == before)
        // The same point twice removes two copies only if there are two.
        #expect(throws: HeatmapError.self) { try layer.remove([points[0], points[0]]) }
        try layer.remove([points[0]])
        #expect(layer.pointCount == points.count - 1)
        #expect(throws: HeatmapError.self) {
            try layer.add([WeightedLatLng(coordinate: Coordinate(latitude: 91, longitude: 0))])
        }
        #expect(layer.pointCount == points.count - 1)
    }

    @Test("only the cached tiles a change reaches are drawn again")
    func untouchedTilesStayCached() throws {
        let melbourne = Fixtures.cluster(latitude: -37.8, longitude: 144.9)
        let perth = Fixtures.cluster(latitude: -31.95, longitude: 115.86)
        let layer = HeatmapTileLayer(weightedData: melbourne + perth)
        layer.maximumIntensity = 10  // M(z) fixed: only reach decides
        let space = try PixelSpace(zoom: 7, scale: 1)
        let m = space.pixel(of: Coordinate(latitude: -37.8, longitude: 144.9))
        let p = space.pixel(of: Coordinate(latitude: -31.95, longitude: 115.86))
        let tiles = [(m.x / 256, m.y / 256), (p.x / 256, p.y / 256)]
        for (x, y) in tiles { _ = try layer.tileFor(x: x, y: y, zoom: 7) }
        let drawn = layer.tilesDrawn
        for (x, y) in tiles { _ = try layer.tileFor(x: x, y: y, zoom: 7) }
        #expect(layer.tilesDrawn == drawn)
        let before = try layer.tileFor(x: tiles[0].0, y: tiles[0].1, zoom: 7)
        let change = try layer.add([WeightedLatLng(coordinate: Coordinate(latitude: -37.85, longitude: 144.95))])
        #expect(change.tilesDropped == 1)
        let after = try layer.tileFor(x: tiles[0].0, y: tiles[0].1, zoom: 7)
        #expect(layer.tilesDrawn == drawn + 1)
        #expect(after != before)
        _ = try layer.tileFor(x: tiles[1].0, y: tiles[1].1, zoom: 7)
        #expect(layer.tilesDrawn == drawn + 1)
    }

    @Test("an append that raises M(z) redraws every tile of the zoom; M(z) stays exact")
    func raisedMaximumRedraws() throws {
        let melbourne = Fixtures.cluster(latitude: -37.8, longitude: 144.9)
        let perth = Fixtures.cluster(latitude: -31.95, longitude: 115.86)
        let layer = HeatmapTileLayer(weightedData: melbourne + perth)
        let space = try PixelSpace(zoom: 7, scale: 1)
        let p = space.pixel(of: Coordinate(latitude: -31.95, longitude: 115.86))
        let perthTile = try layer.tileFor(x: p.x / 256, y: p.y / 256, zoom: 7)
        let heavy = WeightedLatLng(coordinate: Coordinate(latitude: -37.8, longitude: 144.9), intensity: 500)
        try layer.add([heavy])
        let fresh = HeatmapTileLayer(weightedData: melbourne + perth + [heavy])
        #expect(try layer.normalization(zoom: 7) == fresh.normalization(zoom: 7))
        let redrawn = try layer.tileFor(x: p.x / 256, y: p.y / 256, zoom: 7)
        #expect(redrawn == (try fresh.tileFor(x: p.x / 256, y: p.y / 256, zoom: 7)))
        #expect(redrawn != perthTile)
    }

    @Test("tiles asked for during changes are each drawn from one state")
    func concurrentChanges() async throws {
        var random = SplitMix64(seed: 99)
        let start = Self.points(100, &random)
        let batches = (0..<6).map { _ in Self.points(40, &random) }
        var expected: Set<[UInt8]> = []
        var all = start
        for k in 0...batches.count {
            if k > 0 { all += batches[k - 1] }
            if let png = try HeatmapTileLayer(weightedData: all).tileFor(x: 7, y: 4, zoom: 3).png {
                expected.insert(png)
            }
        }
        let layer = HeatmapTileLayer(weightedData: start)
        let seen = try await withThrowingTaskGroup(of: [[UInt8]].self) { group in
            group.addTask {
                for batch in batches { try layer.add(batch) }
                return []
            }
            for _ in 0..<4 {
                group.addTask {
                    var pngs: [[UInt8]] = []
                    for _ in 0..<20 {
                        if let png = try await layer.tile(x: 7, y: 4, zoom: 3).png { pngs.append(png) }
                    }
                    return pngs
                }
            }
            var seen: [[UInt8]] = []
            for try await pngs in group { seen += pngs }
            return seen
        }
        #expect(!seen.isEmpty)
        #expect(seen.allSatisfy { expected.contains($0) })
        #expect(
            try layer.tileFor(x: 7, y: 4, zoom: 3).png
                == (try HeatmapTileLayer(weightedData: all).tileFor(x: 7, y: 4, zoom: 3).png))
    }

    @Test("past the compaction threshold the delta is merged and the tiles stay the same")
    func compaction() throws {
        var random = SplitMix64(seed: 5)
        let start = Self.points(10, &random)
        let layer = HeatmapTileLayer(weightedData: start)
        let many = Self.points(70_000, &random)
        try layer.add(many)
        let fresh = HeatmapTileLayer(weightedData: start + many)
        #expect(try layer.intensity(x: 7, y: 4, zoom: 3)?.values == fresh.intensity(x: 7, y: 4, zoom: 3)?.values)
        #expect(try layer.normalization(zoom: 6) == fresh.normalization(zoom: 6))
    }
}

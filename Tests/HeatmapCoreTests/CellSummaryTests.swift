import Testing

@testable import HeatmapCore

/// The summaries of coarse levels hold each occupied cell's weight exactly as the keys give
/// it, and a gather from them fills the same grid as a walk over the keys.
@Suite struct CellSummaryTests {
    static let points = SampleData.random(count: 40000, seed: 11)
    static let index: PointIndex? = try? PointIndex(points: points)

    @Test("each kept level lists every cell of positive weight with Float(prefix difference)")
    func entries() throws {
        let index = try #require(Self.index)
        var kept = 0
        for level in CellSummaries.finestLevel...CellSummaries.coarsestLevel {
            guard let summary = index.summaries.summary(level: level) else { continue }
            kept += 1
            var expected: [UInt64] = []
            var start = 0
            let shift = UInt64(2 * level)
            for i in 1...index.keys.count
            where i == index.keys.count || index.keys[i] >> shift != index.keys[start] >> shift {
                let weight = index.prefix[i] - index.prefix[start]
                if weight > 0 {
                    expected.append((index.keys[start] >> shift) << 32 | UInt64(Float(weight).bitPattern))
                }
                start = i
            }
            #expect(Array(summary.entries) == expected, "level \(level)")
            #expect(summary.entries.count <= index.count / 2)
        }
        #expect(kept >= 3)
        #expect(index.summaries.entries.count <= 3 * index.count / 4)
    }

    /// Gathers `padded` from the summaries and from the keys; expects identical grids.
    static func expectSameGather(_ index: PointIndex, _ padded: PixelRect, _ space: PixelSpace) {
        var fromSummary = GatheredCells(width: padded.width, height: padded.height)
        var fromKeys = GatheredCells(width: padded.width, height: padded.height)
        index.gather(padded, space: space, into: &fromSummary)
        index.gather(padded, space: space, into: &fromKeys, fromSummaries: false)
        let label = "z\(space.zoom) s\(space.scale) \(padded)"
        #expect(fromSummary.storage == fromKeys.storage, "\(label)")
        #expect(fromSummary.rowChunks == fromKeys.rowChunks, "\(label)")
        #expect(fromSummary.rowCounts == fromKeys.rowCounts, "\(label)")
    }

    @Test("gathers from summaries equal gathers from keys: tiles, edges, antimeridian, scales 1 to 3")
    func gathers() throws {
        let index = try #require(Self.index)
        var rng = SplitMix64(seed: 5)
        var summarised = 0
        for zoom in 0...9 {
            for scale in 1...3 {
                let space = try PixelSpace(zoom: zoom, scale: scale)
                if let level = space.pixelLevel, index.summaries.summary(level: level) != nil { summarised += 1 }
                let world = space.worldSize
                let t = space.tileSize
                let anchor = Self.points[Int.random(in: 0..<Self.points.count, using: &rng)]
                let (px, py) = space.pixel(of: anchor.coordinate)
                let rects = [
                    PixelRect(tileX: px / t, y: py / t, in: space).expanded(by: 20 * scale),
                    // Across the antimeridian, both ways, and past the poles.
                    PixelRect(x: -37, y: py - 50, width: t, height: t),
                    PixelRect(x: world - t / 2, y: -30, width: t, height: t + 60),
                    PixelRect(x: px - 3, y: world - 70, width: 50, height: 100),
                    // The whole world and more: it wraps onto itself.
                    PixelRect(x: -40, y: -40, width: world + 80, height: world + 80),
                ]
                for rect in rects where rect.width * rect.height <= 4_000_000 {
                    Self.expectSameGather(index, rect, space)
                }
            }
        }
        #expect(summarised >= 6)
    }
}

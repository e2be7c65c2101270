import Foundation
import HeatmapKit
import HeatmapTestSupport
import HeatmapTiles
import Testing

/// The library's render: `PyramidRenderer.render(to:metadata:mode:progress:)` opens the writer the
/// path names (the writers are `package`) and writes the tiles `tileFor` answers.
@Suite struct RenderToPathTests {
    @Test(
        "render(to:) writes an MBTiles archive and a PMTiles one with tileFor's bytes",
        arguments: ["mbtiles", "pmtiles"])
    func writes(kind: String) throws {
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations, cacheBytes: 0)
        let walk = try PyramidWalk(layer: layer, zooms: 0...4, scale: 1)
        let path = Fixtures.temporaryPath("p.\(kind)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let summary = try PyramidRenderer(layer: layer, walk: walk, scale: 1, jobs: 2)
            .render(to: path, metadata: Fixtures.metadata())
        #expect(summary.written > 0)
        let reader = try TileArchive.open(path)
        var walked = walk
        var found = 0
        while let tile = walked.next() {
            let expected = try layer.tileFor(x: tile.x, y: tile.y, zoom: tile.zoom).png
            #expect(try reader.tileData(z: tile.zoom, x: tile.x, y: tile.y) == expected, "\(tile)")
            found += expected == nil ? 0 : 1
        }
        #expect(found == summary.written)
        // An existing archive is refused in the default mode, with the writer's message.
        #expect {
            _ = try PyramidRenderer(layer: layer, walk: walk, scale: 1, jobs: 1).render(
                to: path, metadata: Fixtures.metadata())
        } throws: { error in
            (error as? RenderFailure)?.summary.written == 0 && "\(error)".contains(path)
        }
    }

    @Test("a path that names no archive kind is a RenderFailure, not a trap")
    func unknownKind() throws {
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations, cacheBytes: 0)
        let walk = try PyramidWalk(layer: layer, zooms: 0...1, scale: 1)
        #expect(throws: RenderFailure.self) {
            _ = try PyramidRenderer(layer: layer, walk: walk, scale: 1, jobs: 1).render(
                to: Fixtures.temporaryPath("p.png"), metadata: Fixtures.metadata())
        }
    }
}

import Testing

@testable import HeatmapTiles

/// PMTiles tile ids: the values of the specification's reference implementation, and back.
@Suite struct TileIDTests {
    @Test(
        "ids of the reference implementation",
        arguments: [
            ((0, 0, 0), UInt64(0)), ((1, 0, 0), 1), ((1, 0, 1), 2), ((1, 1, 1), 3), ((1, 1, 0), 4), ((2, 0, 0), 5),
            ((3, 0, 0), 21), ((12, 3423, 1763), 19_078_479), ((22, 0, 0), 5_864_062_014_805),
        ])
    func known(tile: (Int, Int, Int), id: UInt64) {
        let coordinate = TileCoordinate(zoom: tile.0, x: tile.1, y: tile.2)
        #expect(PMTilesTileID.id(coordinate) == id)
        #expect(PMTilesTileID.tile(id) == coordinate)
    }

    @Test("ids run zoom by zoom, one for each tile, and invert")
    func roundTrip() {
        for zoom in 0...4 {
            let n = 1 << zoom
            let base = UInt64((n * n - 1) / 3)
            var ids = Set<UInt64>()
            for x in 0..<n {
                for y in 0..<n {
                    let tile = TileCoordinate(zoom: zoom, x: x, y: y)
                    let id = PMTilesTileID.id(tile)
                    ids.insert(id)
                    #expect(PMTilesTileID.tile(id) == tile)
                }
            }
            #expect(ids == Set(base..<(base + UInt64(n * n))))
        }
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        for _ in 0..<2000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let zoom = Int(state >> 59) % 23
            let x = Int((state >> 20) & 0x3f_ffff) % (1 << zoom)
            let y = Int(state & 0x3f_ffff) % (1 << zoom)
            let tile = TileCoordinate(zoom: zoom, x: x, y: y)
            #expect(PMTilesTileID.tile(PMTilesTileID.id(tile)) == tile)
        }
    }

    @Test("neighbours on the Hilbert curve are neighbouring tiles")
    func hilbert() {
        for id in UInt64(21)..<UInt64(84) {
            guard let a = PMTilesTileID.tile(id), let b = PMTilesTileID.tile(id + 1), a.zoom == b.zoom else { continue }
            #expect(abs(a.x - b.x) + abs(a.y - b.y) == 1)
        }
    }
}

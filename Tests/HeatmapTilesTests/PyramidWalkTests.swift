import HeatmapCore
import HeatmapKit
import HeatmapTiles
import Testing

/// The walk visits exactly the tiles that draw something, without enumerating the grid.
@Suite struct PyramidWalkTests {
    static func index() throws -> PointIndex { try PointIndex(points: Fixtures.policeStations) }

    static func drawn(zooms: ClosedRange<Int>, scale: Int, radius: Int, area: TileArea? = nil) throws -> Set<
        TileCoordinate
    > {
        let layer = HeatmapTileLayer(index: try index(), settings: HeatmapSettings(radius: radius), cacheBytes: 0)
        var tiles = Set<TileCoordinate>()
        for zoom in zooms {
            for x in 0..<(1 << zoom) {
                for y in 0..<(1 << zoom) {
                    let tile = TileCoordinate(zoom: zoom, x: x, y: y)
                    if let area, !area.contains(tile) { continue }
                    if case .image = try layer.tileFor(x: x, y: y, zoom: zoom, scale: scale) { tiles.insert(tile) }
                }
            }
        }
        return tiles
    }

    static func walked(zooms: ClosedRange<Int>, scale: Int, radius: Int, area: TileArea? = nil) throws
        -> [TileCoordinate]
    {
        var walk = try PyramidWalk(index: try index(), zooms: zooms, scale: scale, radius: radius, area: area)
        var tiles: [TileCoordinate] = []
        while let tile = walk.next() { tiles.append(tile) }
        return tiles
    }

    @Test("the tiles walked are the tiles that draw, each once", arguments: [(1, 20), (2, 20), (1, 50), (3, 10)])
    func sameAsGrid(scale: Int, radius: Int) throws {
        let walked = try Self.walked(zooms: 0...6, scale: scale, radius: radius)
        #expect(Set(walked).count == walked.count)
        #expect(Set(walked) == (try Self.drawn(zooms: 0...6, scale: scale, radius: radius)))
        let upper = try Self.walked(zooms: 4...6, scale: scale, radius: radius)
        #expect(Set(upper) == Set(walked.filter { $0.zoom >= 4 }))
    }

    @Test("--bounds keeps the tiles that meet the area, across the antimeridian too")
    func bounds() throws {
        let melbourne = TileArea(PointBounds(south: -38.2, west: 144.5, north: -37.5, east: 145.5))
        let walked = try Self.walked(zooms: 0...7, scale: 1, radius: 20, area: melbourne)
        #expect(Set(walked) == (try Self.drawn(zooms: 0...7, scale: 1, radius: 20, area: melbourne)))
        #expect(walked.filter { $0.zoom == 7 }.count < 9)
        let across = TileArea(PointBounds(south: -10, west: 170, north: 10, east: -170))
        #expect(across.contains(TileCoordinate(zoom: 3, x: 0, y: 3)))
        #expect(across.contains(TileCoordinate(zoom: 3, x: 7, y: 4)))
        #expect(!across.contains(TileCoordinate(zoom: 3, x: 4, y: 4)))
    }

    @Test("a deep range over a small area visits few tiles: the grid is never enumerated")
    func deep() throws {
        let one = try PointIndex(points: [WeightedLatLng(coordinate: Coordinate(latitude: -37.8, longitude: 144.9))])
        var walk = try PyramidWalk(index: one, zooms: 0...22, scale: 1, radius: 20)
        var count = 0
        while walk.next() != nil { count += 1 }
        #expect(count >= 23 && count <= 4 * 23)
        #expect(walk.count() == 0)  // a walk that has ended counts nothing more
    }
}

import HeatmapKit
import Testing

/// `PointBounds.padded(byPixels:atZoom:)`: the box TileJSON and MBTiles publish.
@Suite struct PointBoundsPaddingTests {
    static let victoria = PointBounds(south: -38.7597, west: 141.083, north: -34.1674, east: 149.751)

    @Test func growsByTheReachAtTheZoom() {
        let padded = Self.victoria.padded(byPixels: 20, atZoom: 9)
        let degrees = 20.0 / Double(256 << 9) * 360
        #expect(abs(padded.west - (141.083 - degrees)) < 1e-9 && abs(padded.east - (149.751 + degrees)) < 1e-9)
        #expect(padded.south < -38.7597 && padded.north > -34.1674)
        // Deeper zooms need less: the lowest zoom's box holds theirs.
        let deeper = Self.victoria.padded(byPixels: 20, atZoom: 12)
        #expect(padded.west < deeper.west && deeper.east < padded.east && padded.south < deeper.south)
    }

    @Test func wrapsAcrossTheAntimeridian() {
        let east = PointBounds(south: -20, west: 170, north: -10, east: 179.9).padded(byPixels: 20, atZoom: 3)
        #expect(east.crossesAntimeridian && east.west < 170 && east.east > -180 && east.east < -170)
        #expect(east.withoutWrapping == PointBounds(south: east.south, west: -180, north: east.north, east: 180))
        let crossing = PointBounds(south: -20, west: 175, north: -10, east: -175).padded(byPixels: 10, atZoom: 6)
        #expect(crossing.crossesAntimeridian && crossing.west < 175 && crossing.east > -175)
        // A box that would go round the world is the whole width.
        let wide = PointBounds(south: 0, west: -170, north: 1, east: 170).padded(byPixels: 50, atZoom: 0)
        #expect(wide.west == -180 && wide.east == 180 && !wide.crossesAntimeridian)
        #expect(Self.victoria.withoutWrapping == Self.victoria)
    }

    @Test func staysOnTheMapAtThePoles() {
        let polar = PointBounds(south: -85, west: 0, north: 85, east: 10).padded(byPixels: 50, atZoom: 0)
        #expect(polar.south >= -85.0512 && polar.north <= 85.0512 && polar.south < -85 && polar.north > 85)
        let odd = PointBounds(south: 0, west: 0, north: 0, east: 0).padded(byPixels: -5, atZoom: 99)
        #expect(odd.west == 0 && odd.east == 0)
    }
}

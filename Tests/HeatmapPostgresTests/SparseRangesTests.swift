import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

@Suite(.serialized) struct SparseRangesTests {
    @Test("merged ranges hold every range given, are sorted and apart, and never run across 2^63")
    func mergingKeepsEveryRange() {
        var random = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let x0 = UInt64.random(in: 0..<(1 << 32) - 4096, using: &random)
            let y0 = UInt64.random(in: 0..<(1 << 32) - 4096, using: &random)
            let columns = x0..<(x0 + UInt64.random(in: 1...4096, using: &random))
            let rows = y0..<(y0 + UInt64.random(in: 1...4096, using: &random))
            let ranges = KeyRanges.decomposed(columns: columns, rows: rows, detail: 8)
            let limit = [0, 8, 20, 200][round % 4]
            let merged = KeyRanges.merging(ranges) { _, _ in
                Int.random(in: 0...limit, using: &random) == 0 ? nil : Int.random(in: 0...limit, using: &random)
            }
            #expect(!merged.isEmpty && merged.count <= ranges.count)
            for range in ranges {
                #expect(merged.contains { $0.contains(range.lowerBound) && $0.contains(range.upperBound) })
            }
            for (a, b) in zip(merged, merged.dropFirst()) {
                #expect(UInt64(bitPattern: a.upperBound) < UInt64(bitPattern: b.lowerBound))
            }
            for range in merged { #expect((range.lowerBound < 0) == (range.upperBound < 0)) }
        }
    }

    @Test("no rows beside a tile make one range; unknown rows leave the ranges as they are")
    func mergingExtremes() {
        let ranges = KeyRanges.decomposed(columns: 1000..<1300, rows: 5000..<5300, detail: 8)
        #expect(ranges.count > 1)
        #expect(KeyRanges.merging(ranges) { _, _ in 0 } == [ranges[0].lowerBound...ranges[ranges.count - 1].upperBound])
        #expect(KeyRanges.merging(ranges) { _, _ in nil } == ranges)
        #expect(KeyRanges.merging(ranges) { _, _ in 1_000_000 } == ranges)
        // Across 2^63 (keys negative as stored) the halves stay apart.
        let middle = (UInt64(1) << 31)
        let across = KeyRanges.decomposed(columns: 0..<8, rows: (middle - 4)..<(middle + 4), detail: 8)
        let joined = KeyRanges.merging(across) { _, _ in 0 }
        #expect(joined.count == 2)
        #expect(joined.allSatisfy { ($0.lowerBound < 0) == ($0.upperBound < 0) })
    }

    /// A dense cluster beside a few scattered points, at Melbourne.
    static let points: [WeightedLatLng] = {
        var points: [WeightedLatLng] = []
        for i in 0..<600 {
            let a = Double(i % 25) * 0.0004
            let b = Double(i / 25) * 0.0004
            points.append(
                WeightedLatLng(coordinate: Coordinate(latitude: -37.80 + a, longitude: 144.90 + b), intensity: 1))
        }
        for i in 0..<30 {
            let lat = -37.9 + Double(i % 6) * 0.05
            let lng = 145.1 + Double(i / 6) * 0.07
            points.append(
                WeightedLatLng(coordinate: Coordinate(latitude: lat, longitude: lng), intensity: 0.5 + Double(i % 4)))
        }
        return points
    }()

    /// Tiles of zooms 9 to 16 around the scattered points and the cluster's edge.
    static func tiles(around points: [WeightedLatLng]) throws -> [(PixelSpace, Int, Int)] {
        var tiles: [(PixelSpace, Int, Int)] = []
        for zoom in [9, 12, 14, 16] {
            for scale in [1, 2] {
                let space = try PixelSpace(zoom: zoom, scale: scale)
                for point in [points[0], points[600], points[615], points[629]] {
                    let (x, y) = space.pixel(of: point.coordinate)
                    tiles.append((space, x / (256 * scale), y / (256 * scale)))
                }
            }
        }
        return tiles
    }

    /// Every tile of `tiles` drawn pinned from `source` equals memory's from `points`.
    static func expectSame(_ source: PostgresSource, _ points: [WeightedLatLng], _ tiles: [(PixelSpace, Int, Int)])
        throws
    {
        let pinned = source.pinned(toChangeCount: try source.changeCount())
        let index = try PointIndex(points: points)
        for (space, x, y) in tiles {
            let kernel = GaussianKernel(radius: 20 * space.scale)
            let rect = PixelRect(tileX: x, y: y, in: space)
            let a = index.intensity(in: rect, space: space, kernel: kernel)
            let b = try pinned.intensity(in: rect, space: space, kernel: kernel)
            #expect(a.values.count == b.values.count)
            let worst = zip(a.values, b.values).map { abs($0 - $1) / max($0, $1, .leastNormalMagnitude) }.max() ?? 0
            #expect(worst <= 1e-6, "tile \(space.zoom)/\(x)/\(y)@\(space.scale)x: \(worst)")
        }
    }

    @Test("sparse tiles read one range, stay exact, and show rows written after the cells were read", .needsPostgres)
    func sparseTilesOnLiveData() throws {
        let cluster = try TestCluster.require()
        var points = Self.points
        _ = try PostgresImport.run(points: points, into: "sparseranges", connection: cluster.conninfo, mode: .replace)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "sparseranges"))
        let tiles = try Self.tiles(around: points)
        try Self.expectSame(source, points, tiles)
        // A zoom-16 tile of one scattered point is one range scan.
        let connection = try PostgresConnection(cluster.conninfo)
        let space = try PixelSpace(zoom: 16, scale: 1)
        let (px, py) = space.pixel(of: points[615].coordinate)
        let columns = space.firstUnit(ofPixel: px - 148)..<space.firstUnit(ofPixel: px + 148)
        let rows = space.firstUnit(ofPixel: py - 148)..<space.firstUnit(ofPixel: py + 148)
        let ranges = KeyRanges.decomposed(columns: columns, rows: rows, detail: 8)
        #expect(ranges.count > 1)
        #expect(try source.sparseRanges(ranges, on: connection).count == 1)
        // Rows written into the sparse area after its cells were read (kept 30 s) still show.
        var values: [String] = []
        for g in 0..<500 {
            let coordinate = Coordinate(latitude: -37.9 + Double(g) * 0.00001, longitude: 145.1 + Double(g) * 0.00002)
            points.append(WeightedLatLng(coordinate: coordinate, intensity: 2))
            values.append("(\(coordinate.latitude), \(coordinate.longitude), 2)")
        }
        try connection.execute("INSERT INTO sparseranges (lat, lng, weight) VALUES " + values.joined(separator: ", "))
        try Self.expectSame(source, points, tiles)
        try connection.execute("DELETE FROM sparseranges WHERE lng < 145.05")
        points.removeAll { $0.coordinate.longitude < 145.05 }
        try Self.expectSame(source, points, tiles)
    }
}

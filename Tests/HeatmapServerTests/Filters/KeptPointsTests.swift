import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Testing

/// What a layer's filters keep, as `render` records it (`kept` and the extent), from a file and
/// with live points added; and `/static/…png?step=` with an open end and a category: frames
/// over the category's days only, 204 when the filters keep nothing to close the end on.
@Suite struct KeptPointsTests {
    typealias Row = LiveFilterTests.Row

    /// A layer of `LiveFilterTests.file` drawn with `query`'s filters, and its service.
    static func layer(_ query: String, in folder: TemporaryFolder) throws -> (ServedLayer, TileService) {
        let path = folder.file("points.csv")
        try Data(LiveFilterTests.csv(LiveFilterTests.file).utf8).write(to: URL(fileURLWithPath: path))
        let data = try LayerData.load(path: path, options: FilterRouteTests.options)
        let layer = try ServedLayer(
            name: "p", settings: .paletteDefault, filters: try SettingOverrides(query: items(query)), data: data)
        var options = ServerOptions()
        options.writeToken = try WriteToken(LiveFilterTests.secret)
        return (layer, try TileService(layers: [layer], options: options))
    }

    /// A query's items, as sent.
    static func items(_ query: String) -> [(name: String, value: String)] {
        query.split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// The frame count an APNG's `acTL` chunk gives, or `nil` for none.
    static func frameCount(_ png: [UInt8]) -> Int? {
        let name = Array("acTL".utf8)
        guard let at = png.indices.dropLast(8).first(where: { Array(png[$0..<($0 + 4)]) == name }) else { return nil }
        return png[(at + 4)..<(at + 8)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Expects `layer`'s kept count and extent to be those of `rows`.
    static func expectKept(_ layer: ServedLayer, _ rows: [Row], _ comment: Comment) throws {
        let kept = try #require(try layer.keptExtent(), comment)
        #expect(kept.count == rows.count, comment)
        let brute = try PointIndex(
            points: rows.map {
                WeightedLatLng(
                    coordinate: Coordinate(latitude: $0.latitude, longitude: $0.longitude),
                    intensity: Double($0.weight))
            })
        #expect(kept.bounds == PointBounds(of: [brute]), comment)
        // As read, within the index's 1e-7°.
        if let bounds = kept.bounds, let south = rows.map(\.latitude).min(), let west = rows.map(\.longitude).min() {
            #expect(abs(bounds.south - south) < 1e-6 && abs(bounds.west - west) < 1e-6, comment)
        }
    }

    @Test(
        "kept counts and bounds exactly the points in the window and categories, live points too",
        arguments: [
            ("datetime=2024-03-01/2024-09-01&category=kind:theft", "2024-03-01/2024-09-01", ["theft"]),
            ("category=kind:fraud,a%2Cb", "../..", ["fraud", "a,b"]),
            ("datetime=2024-06-01/..", "2024-06-01/..", ["theft", "burglary", "a,b", "fraud", "arson"]),
            ("datetime=2030-01-01/..", "2030-01-01/..", ["theft"]),
        ])
    func keptCount(_ query: String, window text: String, kinds: [String]) throws {
        let folder = try TemporaryFolder("kept-points")
        defer { folder.remove() }
        let (layer, service) = try Self.layer(query, in: folder)
        let window = try TimeWindow(parsing: text)
        let keeps = { (row: Row) in window.contains(row.time) && kinds.contains(row.kind) }
        try Self.expectKept(layer, LiveFilterTests.file.filter(keeps), "\(query) of the file")
        let posted = LiveFilterTests.post(service, LiveFilterTests.csv(LiveFilterTests.live))
        #expect(posted.status == 200, "\(posted.text)")
        let both = (LiveFilterTests.file + LiveFilterTests.live).filter(keeps)
        #expect(both.count > LiveFilterTests.file.filter(keeps).count || text.hasPrefix("2030"))
        try Self.expectKept(layer, both, "\(query) with live points")
        let plain = try ServedLayer(name: "q", data: LayerData(index: PointIndex(points: []), bounds: nil))
        #expect(try plain.keptExtent() == nil)
    }

    @Test("/static with an open end and a category: the category's days; 204 when nothing is kept to close on")
    func staticOpenEnd() throws {
        let folder = try TemporaryFolder("kept-static")
        defer { folder.remove() }
        let (_, service) = try Self.layer("", in: folder)
        let path = "/static/p/144.96,-37.81,9/64x64.png?step=1mo&category=kind:arson"
        // No arson in the file: a 400 naming it, as before.
        #expect(FilterRouteTests.answer(service, path + "&datetime=../..").status == 400)
        let march = Row(latitude: -37.81, longitude: 144.96, weight: 2, time: 1_709_251_200, kind: "arson")
        let may = Row(latitude: -37.8, longitude: 144.95, weight: 1, time: 1_714_521_600, kind: "arson")
        #expect(LiveFilterTests.post(service, LiveFilterTests.csv([march, may])).status == 200)
        let answer = FilterRouteTests.answer(service, path + "&datetime=../..")
        #expect(answer.status == 200)
        // March 1st to the second after May 1st: the months of March, April and May (cut).
        #expect(Self.frameCount(answer.body) == 3)
        let after = FilterRouteTests.answer(service, path + "&datetime=2024-06-01/..")
        #expect(after.status == 204 && after.body.isEmpty)
        #expect(FilterRouteTests.answer(service, path + "&datetime=2024-06-01/2024-09-01").status == 200)
    }
}

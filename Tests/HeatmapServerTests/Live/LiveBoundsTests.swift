import Foundation
import HeatmapKit
import HeatmapServer
import Testing

/// TileJSON bounds follow appends and removals exactly, across the antimeridian too.
@Suite struct LiveBoundsTests {
    static func point(_ latitude: Double, _ longitude: Double) -> WeightedLatLng {
        WeightedLatLng(coordinate: Coordinate(latitude: latitude, longitude: longitude), intensity: 1)
    }

    /// The bounds a server loading `points` from a file has.
    static func fresh(_ points: [WeightedLatLng]) throws -> (PointBounds?, [UInt8]) {
        let server = try LiveServer(points)
        defer { server.stop() }
        return (server.layer.current.data.bounds, try server.client().get("/live.json").body)
    }

    static func close(_ a: PointBounds?, _ b: PointBounds?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return [a.south - b.south, a.west - b.west, a.north - b.north, a.east - b.east].allSatisfy { abs($0) < 1e-6 }
    }

    @Test(
        "removing the point across the antimeridian, or the middle one of three, shrinks the bounds to a fresh server's",
        arguments: [
            ([point(1, 175), point(4, 178), point(2, 172), point(-3, -170)], [point(-3, -170)]),
            ([point(10, -170), point(0, 0), point(20, 170)], [point(0, 0)]),
            ([point(10, 20), point(30, 25), point(-5, 22), point(12, 21)], [point(30, 25), point(-5, 22)]),
        ])
    func removals(points: [WeightedLatLng], removed: [WeightedLatLng]) throws {
        let server = try LiveServer(points)
        defer { server.stop() }
        #expect(try server.change(removed, method: "DELETE").status == 200)
        let left = points.filter { p in !removed.contains { $0.coordinate == p.coordinate } }
        let (bounds, document) = try Self.fresh(left)
        #expect(
            Self.close(server.layer.current.data.bounds, bounds),
            "\(String(describing: server.layer.current.data.bounds)) \(String(describing: bounds))")
        let served = try server.client().get("/live.json").text
        let (mine, theirs) = (
            Self.field("bounds", served), Self.field("bounds", String(decoding: document, as: UTF8.self))
        )
        #expect(mine.count == 4 && zip(mine, theirs).allSatisfy { abs($0 - $1) < 1e-5 }, "\(mine) \(theirs)")
    }

    @Test("appends grow the bounds by the shortest way round, as a fresh server finds them")
    func appends() throws {
        let points = [Self.point(1, 175), Self.point(4, 178)]
        let server = try LiveServer(points)
        defer { server.stop() }
        let added = [Self.point(-2, -172), Self.point(6, 176)]
        #expect(try server.change(added).status == 200)
        let (bounds, _) = try Self.fresh(points + added)
        #expect(Self.close(server.layer.current.data.bounds, bounds))
        #expect(server.layer.current.data.bounds?.crossesAntimeridian == true)
        let more = [Self.point(0, 0)]
        #expect(try server.change(more).status == 200)
        #expect(Self.close(server.layer.current.data.bounds, try Self.fresh(points + added + more).0))
    }

    /// The numbers of a JSON array field.
    static func field(_ name: String, _ text: String) -> [Double] {
        guard let start = text.range(of: "\"\(name)\":") else { return [] }
        let rest = text[start.upperBound...].drop { $0 == " " || $0 == "[" }
        return rest.prefix { $0 != "]" }.split(separator: ",").compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
    }
}

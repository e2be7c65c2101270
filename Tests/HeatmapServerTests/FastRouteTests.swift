import Testing

@testable import HeatmapServer

@Suite struct FastRouteTests {
    /// Paths near the tile grammar: every one the fast path takes, it reads as the general parse does.
    static func paths() -> [String] {
        let layers = ["a", "police_stations", "static", "leaflet", "", "a.b", "%41", "é"]
        let numbers = [
            "0", "7", "08", "12345678", "123456789", "", "x", "-1", "1e3", String(repeating: "9", count: 40),
        ]
        let ends = [".png", "@2x.png", "@3x.png", "@1x.png", "@4x.png", "@2x@1x.png", ".json", ".pn", "@2.png", ""]
        var paths = [
            "/", "/a/1/2/3.png/", "//1/2/3.png", "/a/1/2/3.png?x=1", "/a//2/3.png", "/static/a/1,2,3/10x10.png",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func pick<T>(_ values: [T]) -> T {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return values[Int(state >> 33) % values.count]
        }
        for _ in 0..<4000 {
            paths.append("/\(pick(layers))/\(pick(numbers))/\(pick(numbers))/\(pick(numbers))\(pick(ends))")
        }
        return paths
    }

    @Test func theFastTileParseAgreesWithTheGeneralOne() {
        var taken = 0
        for path in Self.paths() {
            guard let fast = Route.fastTile(path) else { continue }
            taken += 1
            // The general parse with the fast path off: the same split the route had before it.
            #expect(fast == Route.generalParse(path), "\(path)")
        }
        #expect(taken > 50)
    }
}

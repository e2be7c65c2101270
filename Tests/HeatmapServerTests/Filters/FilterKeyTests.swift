import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Testing

/// One filter, one key: `category=kind:b,a` and `category=kind:a,b` select one set of points, so
/// they share one cached tile and one filter view (one M(z) search), while every URL and message
/// still echoes the spelling its request gave.
@Suite struct FilterKeyTests {
    @Test(
        "the overrides of one set of values in any order, repeated or not, are equal; each echoes its own order",
        arguments: [
            ("category=kind:theft,fraud", "category=kind:fraud,theft"),
            ("category=kind:theft,fraud,theft", "category=kind:fraud,theft"),
            ("category=kind:a%2Cb,fraud&radius=30", "radius=30&category=kind:fraud,a%2Cb"),
            ("category=zone:n,s&category=kind:b,a", "category=kind:a,b&category=zone:s,n"),
        ])
    func canonicalKey(_ first: String, _ second: String) throws {
        let a = try SettingOverrides(query: Self.items(first))
        let b = try SettingOverrides(query: Self.items(second))
        #expect(a == b && a.hashValue == b.hashValue && a.key == b.key)
        #expect(Set([a, b]).count == 1)
        #expect(!a.query.contains("theft,fraud,theft"), "values once: \(a.query)")
    }

    @Test("what is echoed keeps the order given: TileJSON's tile URL and the legend's")
    func echoed() throws {
        let first = try SettingOverrides(query: Self.items("category=kind:theft,fraud"))
        let second = try SettingOverrides(query: Self.items("category=kind:fraud,theft"))
        #expect(first.query == "category=kind:theft,fraud")
        #expect(second.query == "category=kind:fraud,theft")
        #expect(first.key == "category=kind:fraud,theft")
        // Columns in order, each column's values as given.
        let two = try SettingOverrides(query: Self.items("category=zone:s,n&category=kind:b,a"))
        #expect(two.query == "category=kind:b,a&category=zone:s,n")
        #expect(two.key == "category=kind:a,b&category=zone:n,s")
        let folder = try TemporaryFolder("filter-key-echo")
        defer { folder.remove() }
        let service = try FilterRouteTests.service(try FilterRouteTests.csv(in: folder))
        let json = String(
            decoding: FilterRouteTests.answer(service, "/p.json?category=kind:theft,fraud").body, as: UTF8.self)
        #expect(json.contains("/p/{z}/{x}/{y}.png?category=kind:theft,fraud\""), "\(json)")
    }

    @Test("both spellings share one cached tile and one filter view: /metrics counts one miss of each")
    func sharedCacheEntry() throws {
        let folder = try TemporaryFolder("filter-key-cache")
        defer { folder.remove() }
        let service = try FilterRouteTests.service(try FilterRouteTests.csv(in: folder))
        let tile = "/p/\(FilterRouteTests.tile).png"
        let first = FilterRouteTests.answer(service, tile + "?category=kind:theft,a%2Cb")
        let second = FilterRouteTests.answer(service, tile + "?category=kind:a%2Cb,theft,a%2Cb")
        #expect(first.status == 200 && second.status == 200 && first.body == second.body)
        let metrics = String(decoding: FilterRouteTests.answer(service, "/metrics").body, as: UTF8.self)
        for line in [
            "heatmap_tile_cache_misses_total 1\n", "heatmap_tile_cache_hits_total 1\n",
            "heatmap_tile_cache_entries 1\n", "heatmap_filter_cache_misses_total 1\n",
            "heatmap_filter_cache_entries 1\n",
        ] {
            #expect(metrics.contains(line), "\(line)")
        }
    }

    /// `name=value&…` as the parser gives it: split, values left percent-encoded.
    static func items(_ query: String) -> [(name: String, value: String)] {
        query.split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }
}

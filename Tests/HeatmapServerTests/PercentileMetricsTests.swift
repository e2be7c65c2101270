import Foundation
import HeatmapKit
import Testing

@testable import HeatmapServer

/// `/metrics` counts the percentile searches refused (503) and the percentiles dropped from
/// the layers' bounded caches.
@Suite struct PercentileMetricsTests {
    /// The value of an unlabelled sample in Prometheus text.
    static func sample(_ name: String, in text: String) -> Int? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.dropFirst(name.count + 1)) }
    }

    @Test("a refused percentile tile shows in heatmap_percentile_refusals_total, with its HELP and TYPE")
    func refusals() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client(timeout: 60)
        let before = try client.get("/metrics").text
        #expect(Self.sample("heatmap_percentile_refusals_total", in: before) == 0)
        #expect(before.contains("# TYPE heatmap_percentile_refusals_total counter"))
        #expect(before.contains("# TYPE heatmap_percentile_cache_evictions_total counter"))
        // Hold every search slot with searches of another layer, so the next distinct one is refused.
        let admission = server.service.percentileSearches
        let held = (0..<admission.limit).map { i in
            PercentileAdmission.Key(
                layer: "held", generation: 0, zoom: 3, scale: 1, settings: HeatmapSettings(maximumPercentile: Double(i))
            )
        }
        for key in held { #expect(admission.admit(key) == nil) }
        let refused = try client.get("/police/6/57/39.png?max-percentile=97")
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") != nil)
        let legend = try client.get("/police/legend.json?z=6&max-percentile=96")
        #expect(legend.status == 503)
        let after = try client.get("/metrics").text
        #expect(Self.sample("heatmap_percentile_refusals_total", in: after) == 2)
        #expect(Self.sample("heatmap_percentile_refusals_total", in: after) == admission.refused)
        for key in held { admission.release(key) }
        #expect([200, 204].contains(try client.get("/police/6/57/39.png?max-percentile=97").status))
        let evictions = try #require(Self.sample("heatmap_percentile_cache_evictions_total", in: after))
        #expect(evictions >= 0 && evictions <= HeatmapTileLayer.percentileCacheEvictions)
    }
}

import Foundation
import HeatmapKit
import Testing

@testable import HeatmapServer

/// Static images are drawn within a budget of pixels under way: beyond it a 503 with
/// `Retry-After`, counted in `/metrics`; never an unbounded pile of large images.
@Suite struct StaticImageAdmissionTests {
    static let path = "/static/police/145.0,-37.7,7/480x270.png"

    @Test("images are admitted while the budget lasts; one larger than the budget only alone")
    func budget() {
        let admission = StaticImageAdmission(budget: 100)
        #expect(admission.admit(60) == nil)
        #expect(admission.admit(40) == nil)
        #expect(admission.pixels == 100)
        let refusal = admission.admit(1)
        #expect(refusal?.contains("100 pixels") == true)
        admission.release(60)
        #expect(admission.admit(500) != nil, "over the budget while others are under way")
        admission.release(40)
        #expect(admission.admit(500) == nil, "alone, an image larger than the budget is drawn")
        admission.release(500)
        #expect(admission.pixels == 0)
        #expect(admission.refused == 2)
    }

    @Test("the server's budget is four of the largest images")
    func defaultBudget() {
        let largest = 2 * TileService.maximumStaticPoints
        #expect(StaticImageAdmission().budget == 4 * largest * largest)
    }

    @Test("a static image beyond the budget is a 503 with Retry-After, counted; released, it is drawn")
    func refusedWhileFull() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client(timeout: 60)
        let admission = server.service.staticImages
        let before = try client.get("/metrics").text
        #expect(before.contains("# TYPE heatmap_static_refusals_total counter"))
        #expect(PercentileMetricsTests.sample("heatmap_static_refusals_total", in: before) == 0)
        // Hold the whole budget, as images under way would.
        #expect(admission.admit(admission.budget) == nil)
        let refused = try client.get(Self.path)
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") != nil)
        #expect(refused.text.contains("pixels"))
        let after = try client.get("/metrics").text
        #expect(PercentileMetricsTests.sample("heatmap_static_refusals_total", in: after) == 1)
        admission.release(admission.budget)
        let drawn = try client.get(Self.path)
        #expect(drawn.status == 200)
        #expect(admission.pixels == 0, "the drawn image gave its pixels back")
    }
}

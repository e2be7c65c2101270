import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// A removal far from the place M(z) was found keeps M(z) without a search; one at it searches
/// again; both exact.
@Suite(.serialized, .needsPostgres) struct MaximumRemovalTests {
    @Test("a DELETE far from the maximum keeps M(z) with no search; one at the maximum searches again, both exact")
    func removals() throws {
        let cluster = try TestCluster.require()
        var points = ClusteredPoints.points(seed: 9)
        // The maximum at every zoom below: a heavy pair, alone.
        points.append(WeightedLatLng(coordinate: Coordinate(latitude: -30, longitude: 60), intensity: 5000))
        points.append(WeightedLatLng(coordinate: Coordinate(latitude: -30.0001, longitude: 60.0001), intensity: 5000))
        _ = try PostgresImport.run(
            points: points, into: "kernel_removals", connection: cluster.conninfo, mode: .replace)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: "kernel_removals"))
        let connection = try PostgresConnection(cluster.conninfo)
        let slots = [(7, 1), (11, 2), (15, 1)].map { MaximumSlotKey(zoom: $0.0, scale: $0.1, reach: 20 * $0.1) }
        var count = try #require(try source.changeCount())
        var known: [MaximumSlotKey: Float] = [:]
        for slot in slots {
            let space = try PixelSpace(zoom: slot.zoom, scale: slot.scale)
            known[slot] = try source.pinned(toChangeCount: count).maximumIntensity(
                space: space, kernel: GaussianKernel(radius: slot.reach))
        }
        func step(_ sql: String, searches expected: Int, _ name: String) throws {
            let before = source.hooks.places.fullSearches.load(ordering: .relaxed)
            try connection.execute(sql)
            let next = try #require(try source.changeCount())
            let update = try #require(
                source.pinned(toChangeCount: next).partialUpdate(after: count, knownMaxima: known))
            let memory = HeatmapTileLayer(
                index: try PointIndex(points: try LiveSummaryTests.rows(of: "kernel_removals", on: connection)))
            for slot in slots {
                let value = try #require(update.maxima[slot], "\(name): M(\(slot.zoom)) kept")
                let fresh = try memory.normalizationDetails(zoom: slot.zoom, scale: slot.scale).value
                #expect(abs(Double(value) - fresh) <= 1e-6 * fresh, "\(name): M(\(slot.zoom)) \(value) vs \(fresh)")
            }
            #expect(source.hooks.places.fullSearches.load(ordering: .relaxed) - before == expected, "\(name)")
            known = update.maxima
            count = next
        }
        // Small areas (of New York's cluster), so that the reached area stays within the budget.
        let newYork = "lng BETWEEN -74.01 AND -73.99 AND lat BETWEEN"
        try step("DELETE FROM kernel_removals WHERE \(newYork) 40.69 AND 40.7", searches: 0, "a delete far away")
        try step(
            "DELETE FROM kernel_removals WHERE \(newYork) 40.7 AND 40.705", searches: 0, "another, after the first")
        try step(
            "DELETE FROM kernel_removals WHERE weight = 5000 AND lat > -30.00005", searches: slots.count,
            "a delete at the maximum")
        try step(
            "DELETE FROM kernel_removals WHERE \(newYork) 40.705 AND 40.71", searches: 0, "far again, after a search")
    }
}

import Foundation
import HeatmapCore
import HeatmapKit
import Synchronization
import Testing

@testable import HeatmapPostgres

/// M(z) kept in `heatmap_maxima` (``MaximumStore``): a second source (as a second process)
/// takes the value without searching, only at the change count it was found at; a read-only
/// user, a table imported before the store and a sharded table work.
@Suite(.serialized, .needsPostgres) struct MaximumStoreTests {
    /// The notices a source said.
    final class Notices: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }

        func listen(to source: PostgresSource) {
            source.onMaximumStoreNotice { line in self.lines.withLock { $0.append(line) } }
        }
    }

    /// Zooms from the root's search (3) and the regional one (7, 12), scales 1 and 2.
    static let slots = [(3, 1), (7, 2), (12, 1)].map { MaximumSlotKey(zoom: $0.0, scale: $0.1, reach: 20 * $0.1) }

    /// M(z) of every slot from `source`.
    static func maxima(_ source: PostgresSource, _ slots: [MaximumSlotKey] = slots) throws -> [Float] {
        try slots.map { slot in
            try source.maximumIntensity(
                space: try PixelSpace(zoom: slot.zoom, scale: slot.scale), kernel: GaussianKernel(radius: slot.reach))
        }
    }

    /// M(z) of every slot in memory, over the rows of `table`.
    static func memory(_ table: String, on connection: PostgresConnection, _ slots: [MaximumSlotKey] = slots) throws
        -> [Float]
    {
        let index = try PointIndex(points: try LiveSummaryTests.rows(of: table, on: connection))
        return try slots.map { slot in
            index.maximumIntensity(
                space: try PixelSpace(zoom: slot.zoom, scale: slot.scale), kernel: GaussianKernel(radius: slot.reach))
        }
    }

    static func close(_ a: [Float], _ b: [Float]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= 1e-6 * max($0, $1) }
    }

    static func storedRows(_ table: String, on connection: PostgresConnection, version: Int64? = nil) throws -> Int {
        let result = try connection.execute(
            "SELECT count(*) FROM heatmap_maxima WHERE table_name = $1 AND ($2::int8 IS NULL OR version = $2::int8)",
            ["public." + table, version.map { "\($0)" }])
        return result.text(0, 0).flatMap { Int($0) } ?? -1
    }

    static func searches(_ source: PostgresSource) -> Int {
        source.hooks.maximumStore.searches.load(ordering: .relaxed)
    }
    static func reused(_ source: PostgresSource) -> Int { source.hooks.maximumStore.reused.load(ordering: .relaxed) }

    @Test("a second source takes each M(z) kept without searching, bit for bit; after an INSERT only the new count's")
    func keptPerChangeCount() throws {
        let cluster = try TestCluster.require()
        let table = "stored_maxima"
        _ = try PostgresImport.run(
            points: ClusteredPoints.points(seed: 11), into: table, connection: cluster.conninfo, mode: .replace)
        let connection = try PostgresConnection(cluster.conninfo)
        let first = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table))
        let count = try #require(try first.changeCount())
        #expect(try Self.storedRows(table, on: connection) == 0, "a replaced table starts with nothing kept")
        let found = try Self.maxima(first.pinned(toChangeCount: count))
        #expect(Self.searches(first) == Self.slots.count && Self.reused(first) == 0)
        #expect(Self.close(found, try Self.memory(table, on: connection)), "\(found) against memory")
        #expect(try Self.storedRows(table, on: connection, version: count) == Self.slots.count)
        // A second process: a source of its own, nothing in memory.
        let second = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table))
        let again = try Self.maxima(second.pinned(toChangeCount: count))
        #expect(again == found, "the kept values, bit for bit")
        #expect(Self.searches(second) == 0 && Self.reused(second) == Self.slots.count, "no search")
        // The partial update after a write starts from the kept places (the regional zooms').
        for (slot, value) in zip(Self.slots, again) where slot.zoom >= 5 {
            #expect(second.hooks.places.place(of: value, count: count, slot: slot) != nil, "M(\(slot.zoom))'s place")
        }
        // An unpinned source reads the count in its snapshot: the same values.
        let free = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table))
        #expect(try Self.maxima(free) == found && Self.searches(free) == 0)
        // A heavy row near the maximum's place moves every M(z).
        let peak = try #require(ClusteredPoints.points(seed: 11).max { $0.intensity < $1.intensity })
        try connection.execute(
            "INSERT INTO \(table) (lat, lng, weight) VALUES ($1::float8, $2::float8, 100000)",
            ["\(peak.coordinate.latitude)", "\(peak.coordinate.longitude)"])
        let next = try #require(try first.changeCount())
        #expect(next == count + 1)
        #expect(throws: PostgresError.changed(expected: count, found: next), "the old version draws nothing") {
            _ = try Self.maxima(second.pinned(toChangeCount: count), [Self.slots[0]])
        }
        let third = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table))
        let moved = try Self.maxima(third.pinned(toChangeCount: next))
        #expect(Self.searches(third) == Self.slots.count, "the value kept for the old count is not used")
        #expect(Self.close(moved, try Self.memory(table, on: connection)), "\(moved) against memory after the insert")
        #expect(zip(moved, found).allSatisfy { $0 > $1 }, "the insert raised M(z): \(found) to \(moved)")
        #expect(try Self.storedRows(table, on: connection, version: next) == Self.slots.count)
        let fourth = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table))
        #expect(try Self.maxima(fourth.pinned(toChangeCount: next)) == moved && Self.searches(fourth) == 0)
        // A filtered source keeps nothing (its rows may change with no change counted).
        let filtered = try PostgresSource(
            connection: cluster.conninfo, table: PostgresTable(name: table, filter: "weight >= 0"))
        let rows = try Self.storedRows(table, on: connection)
        #expect(Self.close(try Self.maxima(filtered.pinned(toChangeCount: next)), moved))
        #expect(Self.searches(filtered) == Self.slots.count)
        #expect(try Self.storedRows(table, on: connection) == rows, "the filtered source kept nothing")
    }

    @Test("the newest few change counts are kept per slot; older ones are deleted")
    func bounded() throws {
        let cluster = try TestCluster.require()
        let table = "stored_bounded"
        _ = try PostgresImport.run(
            points: ClusteredPoints.points(seed: 12), into: table, connection: cluster.conninfo, mode: .replace)
        let connection = try PostgresConnection(cluster.conninfo)
        let slot = [MaximumSlotKey(zoom: 6, scale: 1, reach: 20)]
        for step in 0..<(MaximumStore.keptCounts + 3) {
            let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table))
            let count = try #require(try source.changeCount())
            let value = try Self.maxima(source.pinned(toChangeCount: count), slot)
            #expect(Self.close(value, try Self.memory(table, on: connection, slot)), "step \(step)")
            #expect(try Self.storedRows(table, on: connection) == min(step + 1, MaximumStore.keptCounts))
            try connection.execute("INSERT INTO \(table) (lat, lng, weight) VALUES (10, \(step), 1)")
        }
        let newest = try connection.execute(
            "SELECT min(version) FROM heatmap_maxima WHERE table_name = $1",
            [
                "public." + table
            ])
        let count = try #require(
            try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table))
                .changeCount())
        #expect(newest.text(0, 0) == "\(count - Int64(MaximumStore.keptCounts))", "the oldest kept")
    }
}

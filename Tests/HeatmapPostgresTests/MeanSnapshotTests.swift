import Foundation
import HeatmapKit
import HeatmapPostgresServer
import HeatmapServer
import Synchronization
import Testing

@testable import HeatmapPostgres

/// A mean tile's two channels come from one snapshot: a change committed between them
/// neither fails the tile (503) nor shows in half of it.
@Suite(.serialized, .needsPostgres) struct MeanSnapshotTests {
    /// The Melbourne tile of ``MeanSourceTests``'s table, drawn as the mean of `price`.
    static let path = "6/57/39.png?aggregate=mean&value-range=570,590"
    /// Moves the prices of the rows in that tile between two states (`+5`, then `-5`).
    static func flip(_ table: String, up: Bool) -> String {
        "UPDATE \(table) SET price = price \(up ? "+" : "-") 5 WHERE lat < -37 AND lat > -38.5 AND lng > 144"
    }

    /// The mean tile's PNG from a fresh layer over the table as it is now.
    static func expected(_ source: PostgresSource) throws -> [UInt8]? {
        let channels = try source.meanChannels(valueColumn: "price")
        var settings = HeatmapSettings()
        settings.aggregate = .mean
        settings.valueRange = 570...590
        return try HeatmapTileLayer(
            source: channels.density, shiftedValues: channels.shiftedValues, values: channels.values,
            settings: settings, cacheBytes: 0
        ).tileFor(x: 57, y: 39, zoom: 6).png
    }

    /// A version's layer data as `heatmap serve --postgres --value price` makes them.
    static func data(_ version: PostgresSource) -> LayerData? {
        guard let channels = try? version.meanChannels(valueColumn: "price") else { return nil }
        var data = LayerData(source: channels.density, count: channels.rows, bounds: nil)
        data.sourceValues = SourceMeanChannel(shiftedValues: channels.shiftedValues, values: channels.values)
        return data
    }

    /// The table `name` of ``MeanSourceTests``, a writer, and the mean tile's PNG in the two
    /// states ``flip(_:up:)`` moves it between (left in the first).
    static func twoStates(_ name: String, cluster: TestCluster) throws -> (
        PostgresSource, PostgresConnection, [UInt8], [UInt8]
    ) {
        try MeanSourceTests.table(name, imported: true, cluster: cluster)
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: name))
        let writer = try PostgresConnection(cluster.conninfo)
        let before = try #require(try Self.expected(source))
        try writer.execute(Self.flip(name, up: true))
        let after = try #require(try Self.expected(source))
        try writer.execute(Self.flip(name, up: false))
        #expect(before != after, "the two states draw different tiles")
        return (source, writer, before, after)
    }

    @Test("writes committed while mean tiles are drawn: every answer 200, each one state's tile, the one it began in")
    func writesBetweenChannels() async throws {
        let cluster = try TestCluster.require()
        let (source, writer, before, after) = try Self.twoStates("priced_live", cluster: cluster)
        let served = try ServedTableFixture(source, name: "priced", followsPartialChanges: false, data: Self.data)
        defer { served.stop() }
        let (table, server) = (served.table, served.server)
        // After the first statement of a tile (the density's), a write commits from another connection.
        let armed = Mutex<Bool?>(nil)
        source.hooks.afterStatement.withLock {
            $0 = {
                guard
                    let up = armed.withLock({ state in
                        defer { state = nil }
                        return state
                    })
                else { return }
                _ = try? writer.execute(Self.flip("priced_live", up: up))
            }
        }
        defer { source.hooks.afterStatement.withLock { $0 = nil } }
        for round in 0..<6 {
            let up = round % 2 == 0
            let swaps = table.wholeSwaps
            armed.withLock { $0 = up }
            let answer = try await ServedTableTests.get("http://127.0.0.1:\(server.port)/priced/\(Self.path)")
            #expect(armed.withLock { $0 } == nil, "round \(round): the write committed during the tile")
            #expect(answer.status == 200, "round \(round): \(String(decoding: answer.body, as: UTF8.self))")
            #expect([before, after].contains(Array(answer.body)), "round \(round): one state's tile")
            #expect(Array(answer.body) == (up ? before : after), "round \(round): the state it began in")
            #expect(LiveDataTests.eventually { table.wholeSwaps > swaps }, "round \(round): the new state served")
        }
        let last = try await ServedTableTests.get("http://127.0.0.1:\(server.port)/priced/\(Self.path)")
        #expect(last.status == 200 && Array(last.body) == before, "six flips: the first state again")
    }

    @Test("a writer flipping the rows while mean and density tiles are asked: every answer 200, one state's tile")
    func concurrentWrites() async throws {
        let cluster = try TestCluster.require()
        let (source, flipper, before, after) = try Self.twoStates("priced_flips", cluster: cluster)
        let served = try ServedTableFixture(source, name: "priced", followsPartialChanges: false, data: Self.data)
        defer { served.stop() }
        let (table, server) = (served.table, served.server)
        // Flips 200 ms apart from another connection, until the client has its answers (each flip
        // fails the tiles begun in the state before it until the new state is swapped in; the
        // server draws them again on it, a few times at most).
        let stop = Atomic(false)
        let flipped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var up = true
            while !stop.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: 0.2)
                if (try? flipper.execute(Self.flip("priced_flips", up: up))) != nil { up.toggle() }
            }
            flipped.signal()
        }
        var answers: [(status: Int, body: [UInt8])] = []
        var density: [Int] = []
        // The density with a fixed scale: no M(z) search again after each swap.
        for _ in 0..<10 {
            let answer = try await ServedTableTests.get("http://127.0.0.1:\(server.port)/priced/\(Self.path)")
            answers.append((answer.status, Array(answer.body)))
            density.append(
                try await ServedTableTests.get("http://127.0.0.1:\(server.port)/priced/6/57/39.png?max=5").status)
        }
        stop.store(true, ordering: .releasing)
        flipped.wait()
        #expect(table.wholeSwaps >= 2, "the new states were served")
        for (index, answer) in answers.enumerated() {
            #expect(answer.status == 200, "answer \(index): \(String(decoding: answer.body, as: UTF8.self))")
            #expect(answer.status != 200 || [before, after].contains(answer.body), "answer \(index): one state's tile")
        }
        #expect(density.allSatisfy { $0 == 200 }, "density tiles: \(density)")
    }
}

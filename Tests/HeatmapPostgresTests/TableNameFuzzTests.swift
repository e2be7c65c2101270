import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// Seeded random table names of quotes, spaces, semicolons, backslashes, dollars, Cyrillic and
/// emoji, of every length around PostgreSQL's 63 bytes, with PostgreSQL as the judge of their
/// length (`name` cuts what it cannot keep): a name it would cut is refused; any other imports
/// with its 11 triggers distinct and complete, its summaries found, and draws the points'
/// tiles. Bounded: 12 names a seed in CI, `HEATMAP_FUZZ_ROUNDS` more elsewhere.
@Suite(.serialized, .needsPostgres) struct TableNameFuzzTests {
    static let pieces = ["a", "Z", "_", " ", "\"", "'", ";", "\\", "$", "-", "Ж", "é", "😀", "x", "0", "(", "%"]

    static var rounds: Int {
        ProcessInfo.processInfo.environment["HEATMAP_FUZZ_ROUNDS"].flatMap { Int($0) } ?? 12
    }

    @Test("random table names: refused by PostgreSQL's length, or imported whole and live", arguments: [1, 2])
    func names(seed: UInt64) throws {
        let cluster = try TestCluster.require()
        let url = try cluster.freshDatabase("names_fuzz_\(seed)")
        let conninfo = ConnectionString(url)
        let connection = try PostgresConnection(conninfo)
        let points = Array(LiveDataTests.points.prefix(20))
        let memory = HeatmapTileLayer(index: try PointIndex(points: points))
        var generator = WhereFuzzTests.Generator(state: seed)
        var refused = 0
        var imported = 0
        for _ in 0..<Self.rounds {
            // Lengths around the limit: 20 to 70 characters of 1 to 4 bytes.
            let length = Int.random(in: 20...70, using: &generator)
            let name = String(
                (0..<length).map { _ in Self.pieces.randomElement(using: &generator) ?? "a" }.joined().prefix(length))
            let kept = try connection.execute("SELECT $1::text::name::text = $1::text", [name]).text(0, 0) == "t"
            let result = Result { () throws(PostgresError) in
                try PostgresImport.run(points: points, into: name, connection: conninfo, mode: .create)
            }
            if case .failure(.nameTooLong(let refusedName, _)) = result {
                #expect(!kept && refusedName == name, "\(name.debugDescription)")
                refused += 1
                continue
            }
            _ = try result.get()
            #expect(kept, "\(name.debugDescription) imported though PostgreSQL cuts it")
            imported += 1
            let quoted = PostgresConnection.quoted(identifier: name)
            let triggers = try connection.execute(
                "SELECT count(DISTINCT tgname) FROM pg_trigger WHERE tgrelid = to_regclass($1) AND NOT tgisinternal",
                [quoted])
            #expect(triggers.text(0, 0) == "11", "\(name.debugDescription)")
            let source = try PostgresSource(connection: conninfo, table: PostgresTable(name: name))
            #expect(source.layout.summaries != nil, "\(name.debugDescription)")
            #expect(try source.missingTriggers().isEmpty, "\(name.debugDescription)")
            #expect(
                try HeatmapTileLayer(source: source).tileFor(x: 115, y: 78, zoom: 7)
                    == memory.tileFor(x: 115, y: 78, zoom: 7), "\(name.debugDescription)")
            try connection.execute("DROP TABLE \(quoted), \(source.layout.summaries ?? "")")
        }
        #expect(imported > 0, "imported \(imported), refused \(refused)")
    }
}

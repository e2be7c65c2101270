import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// Seeded random `--where` texts of the pieces that fool a lexer (comments ended by `\r`,
/// dollar quotes with non-ASCII tags, strings, quoted names, semicolons, parentheses, set
/// operations), with PostgreSQL as the judge: whatever it accepts as a condition, the tile
/// statement's own conditions hold (no pixel outside the tile, no pixel heavier than without
/// the condition) and a pinned version still fails on a newer change count. Bounded: 60 texts
/// a seed in CI, `HEATMAP_FUZZ_ROUNDS` more elsewhere.
@Suite(.serialized, .needsPostgres) struct WhereFuzzTests {
    /// The pieces a text is made of.
    static let pieces = [
        "weight > 0.5", "lat < -37.8", "true", "false", "(", ")", " OR ", " AND ", "--", "\r", "\n", "/*", "*/",
        "$$", "$€$", "$t$", "$heatmap_where$", "'", "\"", "E'\\'", ";", " UNION SELECT true", " FROM where_fuzz",
        " WHERE ", "1=1", "NOT ", "key IS NOT NULL", "\\", "::int", "', true) OR ('", " LIMIT 0", " x ", "lng",
        "pg_sleep(0)", "count(*) > 0", "(SELECT true)", "DELETE FROM where_fuzz", "weight", " = ", "0",
    ]

    /// What a text that tries to leave its parentheses opens (hoping a lexer sees the rest as
    /// hidden), and what it ends with (hoping a lexer sees that as closing it).
    static let openers = ["--\r", "--", "/*", "$€$", "$$", "$t$", "'", "\"", "E'\\'", "U&'", "$1", "\r--"]
    static let closers = ["--\n", "\n", "*/", "$€$", "$$", "$t$", "'", "\"", "", "\n--"]
    static let conditions = ["weight > 1e9", "true", "lat < -37.8", "false", "key > 0", "1=1"]

    /// A text: pieces at random (a quarter), or a condition, an opener, `) OR (`, a condition and a closer.
    static func text(using generator: inout Generator) -> String {
        func any(_ list: [String]) -> String { list.randomElement(using: &generator) ?? "" }
        if Int.random(in: 0..<4, using: &generator) == 0 {
            let count = Int.random(in: 1...7, using: &generator)
            return (0..<count).map { _ in any(pieces) }.joined()
        }
        return any(conditions) + " " + any(openers) + ") OR (" + any(conditions) + " " + any(closers)
    }

    /// A small seeded generator (SplitMix64).
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// How many texts a seed tries.
    static var rounds: Int {
        ProcessInfo.processInfo.environment["HEATMAP_FUZZ_ROUNDS"].flatMap { Int($0) } ?? 60
    }

    @Test(
        "random conditions: PostgreSQL accepts or refuses; an accepted one never widens a tile", arguments: [1, 2, 3])
    func conditions(seed: UInt64) throws {
        let cluster = try TestCluster.require()
        let table = "where_fuzz"
        let writer = try PostgresConnection(cluster.conninfo)
        if try writer.execute("SELECT to_regclass('where_fuzz') IS NULL").text(0, 0) == "t" {
            _ = try PostgresImport.run(
                points: PostgresSourceTests.points, into: table, connection: cluster.conninfo, mode: .replace)
        }
        let rows = try writer.execute("SELECT count(*) FROM where_fuzz").text(0, 0)
        let all = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table))
        let queries: [(PixelSpace, Range<Int>, Range<Int>)] = [
            (try PixelSpace(zoom: 7, scale: 1), 29440..<29696, 20000..<20224),
            (try PixelSpace(zoom: 3, scale: 2), 0..<4096, 1000..<3000),
        ]
        let whole = try queries.map { try WhereConditionTests.pixels(of: all, space: $0.0, columns: $0.1, rows: $0.2) }
        var generator = Generator(state: seed)
        var accepted = 0
        var refused = 0
        for round in 0..<Self.rounds {
            let text = Self.text(using: &generator)
            let source: PostgresSource
            do {
                source = try PostgresSource(
                    connection: cluster.conninfo, table: PostgresTable(name: table, filter: text),
                    statementTimeout: .seconds(10))
            } catch .invalidFilter(let filter, let reason) {
                refused += 1
                #expect(filter == text && !reason.isEmpty)
                continue
            } catch {
                Issue.record("seed \(seed) round \(round) \(text.debugDescription): \(error)")
                continue
            }
            accepted += 1
            for (index, (space, columns, rows)) in queries.enumerated() {
                let drawn: [[Int64]: Double]
                do {
                    drawn = try WhereConditionTests.pixels(of: source, space: space, columns: columns, rows: rows)
                } catch let error as PostgresError {
                    // A condition PostgreSQL accepts may fail on some row (a cast): an error, never more rows.
                    guard case .queryFailed = error else { throw error }
                    continue
                }
                for (pixel, weight) in drawn {
                    #expect(
                        columns.contains(Int(pixel[0])) && rows.contains(Int(pixel[1])),
                        "\(text.debugDescription): pixel \(pixel)")
                    #expect(
                        weight <= (whole[index][pixel] ?? 0) * (1 + 1e-9),
                        "\(text.debugDescription): pixel \(pixel) weighs \(weight), \(whole[index][pixel] ?? 0) unfiltered"
                    )
                }
            }
            // A pinned version of the filtered source still stands for one change count.
            if accepted % 8 == 1 {
                let counted = try #require(try source.changeCount())
                let pinned = source.pinned(toChangeCount: counted)
                try writer.execute("UPDATE where_fuzz SET weight = weight WHERE false")
                try writer.execute("INSERT INTO where_fuzz (lat, lng, weight) VALUES (-37.8, 145, 0)")
                #expect(throws: PostgresError.changed(expected: counted, found: counted + 2)) {
                    try pinned.intensity(
                        in: PixelRect(x: 29500, y: 20100, width: 8, height: 8),
                        space: try PixelSpace(zoom: 7, scale: 1), kernel: GaussianKernel(radius: 4))
                }
                try writer.execute("DELETE FROM where_fuzz WHERE weight = 0 AND lat = -37.8 AND lng = 145")
            }
        }
        #expect(try writer.execute("SELECT count(*) FROM where_fuzz").text(0, 0) == rows, "no text changed the rows")
        #expect(accepted > 0 && refused > 0, "accepted \(accepted), refused \(refused)")
    }
}

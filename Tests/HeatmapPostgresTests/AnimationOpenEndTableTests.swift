import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTestSupport
import Testing

@testable import HeatmapPostgres

/// `heatmap image --postgres … --category kind:rare --datetime ../.. --step 1d` end to end
/// (issue 28, animation): the open ends close on the first and last second of the rare rows
/// drawn, so the APNG has exactly the rare days as frames, the same APNG a file of the same rows
/// gives; an open interval keeping nothing exits 1 with the reason, writing nothing.
@Suite(.serialized, .needsPostgres) struct AnimationOpenEndTableTests {
    static let day: Int64 = 86_400
    static let february: Int64 = 1_706_745_600  // 2024-02-01T00:00:00Z

    /// Common rows every day of February 2024 around Melbourne and São Paulo (one shard each);
    /// rare rows in São Paulo on the 10th from 06:00 and in Melbourne on the 11th and 12th,
    /// to 18:00; and two rare rows of weight 0 (drawing nothing) on the 1st and the 27th.
    static let rows: [(latitude: Double, longitude: Double, weight: Double, time: Int64, kind: String)] = {
        var random = SplitMix64(seed: 2833)
        let places = [(-37.8, 144.9), (-23.55, -46.63)]
        var rows = (0..<400).map { i in
            (
                places[i % 2].0 + Double.random(in: -0.2..<0.2, using: &random),
                places[i % 2].1 + Double.random(in: -0.2..<0.2, using: &random), 1.0,
                february + Int64.random(in: 0..<(29 * day), using: &random), "common"
            )
        }
        rows += (0..<20).map { i in
            (-23.55 + Double(i) * 0.01, -46.63, 2.0, february + 9 * day + 6 * 3_600 + Int64(i) * 600, "rare")
        }
        rows += (0..<20).map { i in
            (-37.8 + Double(i) * 0.01, 144.9, 2.0, february + 11 * day + 18 * 3_600 - Int64(i) * 6_000, "rare")
        }
        rows.append((-37.5, 145, 0, february, "rare"))
        rows.append((-23.5, -46.5, 0, february + 26 * day, "rare"))
        return rows
    }()

    /// The first and last second of the rare rows drawn (weight above 0).
    static let rare: ClosedRange<Int64> = {
        let times = rows.filter { $0.kind == "rare" && $0.weight > 0 }.map(\.time)
        return (times.min() ?? 0)...(times.max() ?? 0)
    }()

    /// The rows as a CSV file (`lat,lng,weight,time,kind`, the time in Unix seconds).
    static func rowsFile() throws -> String {
        let path = HeatmapCommand.temporaryPath("open-ends.csv")
        let text =
            "lat,lng,weight,time,kind\n"
            + rows.map { "\($0.latitude),\($0.longitude),\($0.weight),\($0.time),\($0.kind)\n" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The frame count in an APNG's `acTL` chunk (`nil` for a plain PNG).
    static func frameCount(_ png: [UInt8]) -> Int? {
        let acTL = Array("acTL".utf8)
        guard let at = (8..<max(8, png.count - 8)).first(where: { png[$0..<($0 + 4)].elementsEqual(acTL) }) else {
            return nil
        }
        return png[(at + 4)..<(at + 8)].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Frames of a day from `start` to the last rare second.
    static func days(from start: Int64) -> Int { Int((rare.upperBound + 1 - start + day - 1) / day) }

    /// Runs `heatmap image SOURCE … --step 1d --category kind:rare --datetime INTERVAL`: its run,
    /// and the file written (`nil` when none).
    static func animation(_ source: [String], _ interval: String) throws -> (run: HeatmapCommand.Run, png: [UInt8]?) {
        let output = HeatmapCommand.temporaryPath("open-end.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try HeatmapCommand.run(
            ["image"] + source + [
                "--center", "-30,50", "--zoom", "1", "--size", "160x96", "--step", "1d", "--category", "kind:rare",
                "--datetime", interval, "--output", output,
            ])
        return (
            run,
            FileManager.default.fileExists(atPath: output)
                ? try [UInt8](Data(contentsOf: URL(fileURLWithPath: output))) : nil
        )
    }

    /// Expects the animations of `table` (the arguments naming it) to have the rare days as
    /// frames, to equal those of `file`, and an interval keeping nothing to exit 1, writing nothing.
    static func expectOpenEnds(_ table: [String], file: String) throws {
        let intervals = [
            ("../..", days(from: rare.lowerBound)), ("2024-02-11/..", days(from: february + 10 * day)),
        ]
        #expect(intervals.map(\.1) == [3, 2])
        for (interval, frames) in intervals {
            let drawn = try animation(table, interval)
            #expect(drawn.run.status == 0, "\(interval): \(drawn.run.standardError)")
            #expect(drawn.png.flatMap(frameCount) == frames, "\(interval)")
            let expected = try animation([file, "--time", "time", "--categories", "kind"], interval)
            #expect(drawn.png != nil && drawn.png == expected.png, "\(interval): not the file's APNG")
        }
        for interval in ["2024-02-20/..", "../2024-02-05"] {
            let none = try animation(table, interval)
            #expect(none.run.status == 1, "\(interval)")
            #expect(
                none.run.standardError.contains("keeps no point of category kind:rare"), "\(none.run.standardError)")
            #expect(none.png == nil, "\(interval): wrote a file")
        }
    }

    @Test("image --postgres --category kind:rare --datetime ../.. --step 1d: the rare days' frames, the file's APNG")
    func command() throws {
        let cluster = try TestCluster.require()
        let file = try Self.rowsFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let imported = try HeatmapCommand.run(
            [
                "import", file, "--postgres", cluster.url, "--table", "open_ends", "--replace", "--time", "time",
                "--categories", "kind",
            ])
        try #require(imported.status == 0, "\(imported.standardError)")
        try Self.expectOpenEnds(
            ["--postgres", cluster.url, "--table", "open_ends", "--time", "time", "--categories", "kind"], file: file)
    }
}

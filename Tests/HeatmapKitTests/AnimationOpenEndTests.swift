import Foundation
import HeatmapCore
import HeatmapTestSupport
import Testing

@testable import HeatmapKit

/// An animation's open ends (`--datetime ../..`, `2024-02-11/..`) with `--category`: they close
/// on the first and last point the categories keep, not the data's, so a category's animation
/// has no leading or trailing empty frames; an open end with nothing kept is an error naming
/// why (the server's 204), nothing drawn.
@Suite struct AnimationOpenEndTests {
    static let day: Int64 = 86_400
    static let february: Int64 = 1_706_745_600  // 2024-02-01T00:00:00Z

    /// Common points every day of February 2024; rare ones on the 10th to the 12th only, and
    /// one rare point of weight 0 on the 1st (it draws nothing).
    static func rows() -> [(latitude: Double, longitude: Double, weight: Double, time: Int64, kind: String)] {
        var random = SplitMix64(seed: 2832)
        var rows = (0..<600).map { _ in
            (
                -37 + Double.random(in: 0..<1, using: &random), 144 + Double.random(in: 0..<1, using: &random), 1.0,
                february + Int64.random(in: 0..<(28 * day), using: &random), "common"
            )
        }
        rows += (0..<40).map { _ in
            (
                -37 + Double.random(in: 0..<1, using: &random), 144 + Double.random(in: 0..<1, using: &random), 1.0,
                february + 9 * day + Int64.random(in: 0..<(3 * day), using: &random), "rare"
            )
        }
        rows.append((-36.5, 144.5, 0, february, "rare"))
        return rows
    }

    static func index(
        _ rows: ArraySlice<(latitude: Double, longitude: Double, weight: Double, time: Int64, kind: String)>,
        continuing dictionaries: [CategoryDictionary]? = nil
    ) throws -> FilterIndex {
        var builder =
            dictionaries.map { FilterIndex.Builder(dictionaries: $0) } ?? FilterIndex.Builder(categoryColumns: ["kind"])
        for row in rows {
            try builder.append(
                latitude: row.latitude, longitude: row.longitude, intensity: row.weight, time: row.time,
                categories: [row.kind])
        }
        return builder.build(slabSize: 32)
    }

    /// The plan `prepare` makes of `interval` and `kinds` over `source`, a frame a day.
    static func plan(_ interval: String, kinds: [String], source: any FilterSource) throws -> FramePlan {
        let request = LayerFilterRequest(
            window: try TimeWindow(parsing: interval),
            categories: kinds.isEmpty ? [] : [CategorySelection(column: "kind", values: kinds)])
        let viewport = Viewport(center: Coordinate(latitude: -36.5, longitude: 144.5), zoom: 7, width: 64, height: 64)
        let step = try TimeStep(parsing: "1d", name: "step")
        return try HeatmapAnimation.prepare(
            request, step: step, window: step, viewport: viewport, source: source,
            whole: HeatmapTileLayer(settings: .default), settings: .default, base: nil
        ).animation.plan
    }

    /// The first second of the day holding `second`.
    static func midnight(_ second: Int64) -> Int { Int(second - second % day) }

    @Test("open ends close on the category's first and last drawn point, from a file and with live points")
    func closeOnTheCategory() throws {
        let rows = Self.rows()
        let rare = rows.filter { $0.kind == "rare" && $0.weight > 0 }.map(\.time)
        let (first, last) = (try #require(rare.min()), try #require(rare.max()))
        let file = try Self.index(rows[...])
        // The same points, the last 200 added live.
        let base = try Self.index(rows[..<441])
        let live = try LiveFilterIndex(base: base).adding(Self.index(rows[441...], continuing: base.dictionaries))
        for source in [file as any FilterSource, live] {
            let both = try Self.plan("../..", kinds: ["rare"], source: source)
            #expect(both.start == Int(first) && both.end == Int(last) + 1)
            #expect(both.count == 3, "the 10th, 11th and 12th")
            let opening = try Self.plan("2024-02-11/..", kinds: ["rare"], source: source)
            #expect(opening.start == Int(Self.february + 10 * Self.day) && opening.end == Int(last) + 1)
            let closing = try Self.plan("../2024-02-11", kinds: ["rare"], source: source)
            #expect(closing.start == Int(first) && closing.end == Int(Self.february + 10 * Self.day))
            // Without categories: the data's range, as before.
            let all = try Self.plan("../..", kinds: [], source: source)
            let times = rows.map(\.time)
            let (low, high) = (try #require(times.min()), try #require(times.max()))
            #expect(all.start == Int(low) && all.end == Int(high) + 1)
            #expect(all.count >= 28)
            // Both ends given: the interval as given, empty frames and all.
            #expect(try Self.plan("2024-02-01/2024-02-29", kinds: ["rare"], source: source).count == 28)
        }
    }

    @Test("an open end with nothing kept to close on is keepsNothing, naming the interval and category")
    func keepsNothing() throws {
        let file = try Self.index(Self.rows()[...])
        for (interval, kinds) in [("2024-02-20/..", ["rare"]), ("../2024-02-05", ["rare"]), ("2024-03-01/..", [])] {
            do {
                _ = try Self.plan(interval, kinds: kinds, source: file)
                Issue.record("\(interval) \(kinds): planned")
            } catch let error as FramePlanError {
                #expect(error.kind == .keepsNothing, "\(interval) \(kinds)")
                #expect(error.message.contains("keeps no point"), "\(error.message)")
                #expect(kinds.isEmpty || error.message.contains("kind:rare"), "\(error.message)")
            }
        }
    }

    @Test("heatmap image: a category's open interval animates its days; nothing kept exits 1, writing nothing")
    func command() throws {
        let folder = try TemporaryFolder("anim-open-end")
        defer { folder.remove() }
        let points = folder.file("points.csv")
        let text =
            "lat,lng,w,time,kind\n"
            + Self.rows().map { "\($0.latitude),\($0.longitude),\($0.weight),\($0.time),\($0.kind)\n" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: points))
        let output = folder.file("anim.png")
        let image = [
            "image", points, "--weight", "w", "--time", "time", "--categories", "kind", "--center", "-36.5,144.5",
            "--zoom", "7", "--size", "64x64", "--step", "1d", "--category", "kind:rare", "--output", output,
        ]
        let made = try TestProgram.heatmap(image + ["--datetime", "../.."])
        try #require(made.status == 0, "\(made.standardError)")
        let frames = try TestAPNG.framePNGs([UInt8](Data(contentsOf: URL(fileURLWithPath: output))))
        #expect(frames.count == 3)
        try FileManager.default.removeItem(atPath: output)
        let none = try TestProgram.heatmap(image + ["--datetime", "2024-02-20/.."])
        #expect(none.status == 1)
        #expect(none.standardError.contains("keeps no point of category kind:rare"), "\(none.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}

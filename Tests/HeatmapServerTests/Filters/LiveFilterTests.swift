import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Synchronization
import Testing

/// `POST /{layer}/points` on a layer served with `--time` and `--categories`: the body carries
/// them (the readers' errors when it does not), and filtered tiles draw the file's points and
/// the live ones kept, as a layer of exactly those points does.
@Suite struct LiveFilterTests {
    struct Row {
        var latitude: Double
        var longitude: Double
        var weight: Int
        var time: Int64
        var kind: String
    }

    /// Seeded rows near Melbourne in 2024 (`live` adds a kind the file lacks, "arson").
    static func rows(count: Int, seed: UInt64, live: Bool = false) -> [Row] {
        var random = SplitMix64(seed: seed)
        let kinds = ["theft", "burglary", "a,b", "fraud"] + (live ? ["arson"] : [])
        return (0..<count).map { _ in
            Row(
                latitude: -37.81 + Double(Int.random(in: -3000...3000, using: &random)) / 100_000,
                longitude: 144.96 + Double(Int.random(in: -3000...3000, using: &random)) / 100_000,
                weight: Int.random(in: 1...3, using: &random),
                time: 1_704_067_200 + Int64.random(in: 0..<(366 * 86_400), using: &random),
                kind: kinds[Int.random(in: 0..<kinds.count, using: &random)])
        }
    }

    static func csv(_ rows: [Row]) -> String {
        "lat,lng,weight,when,kind\n"
            + rows.map { "\($0.latitude),\($0.longitude),\($0.weight),\($0.time),\"\($0.kind)\"\n" }.joined()
    }

    static let secret = "live-filter-t0ken"
    static let file = rows(count: 800, seed: 2807)
    static let live = rows(count: 300, seed: 2808, live: true)
    static let tile = "11/1848/1256"

    static func service(in folder: TemporaryFolder) throws -> TileService {
        let path = folder.file("points.csv")
        try Data(csv(file).utf8).write(to: URL(fileURLWithPath: path))
        let data = try LayerData.load(path: path, options: FilterRouteTests.options)
        var options = ServerOptions()
        options.writeToken = try WriteToken(secret)
        return try TileService(
            layers: [try ServedLayer(name: "p", settings: .paletteDefault, data: data)], options: options)
    }

    static func post(_ service: TileService, _ body: String, method: String = "POST") -> (status: Int, text: String) {
        var request = HTTPRequest(
            method: method, target: "/p/points",
            headers: HTTPHeaders([("Authorization", "Bearer \(secret)"), ("Content-Type", "text/csv")]))
        request.body = Array(body.utf8)
        let answer = Mutex<(Int, String)>((0, ""))
        switch service.respond(to: request) {
        case .response(let response):
            answer.withLock { $0 = (response.status.code, String(decoding: response.body, as: UTF8.self)) }
        case .deferred(let start):
            let done = DispatchSemaphore(value: 0)
            start { response in
                answer.withLock { $0 = (response.status.code, String(decoding: response.body, as: UTF8.self)) }
                done.signal()
            }
            done.wait()
        }
        return answer.withLock { $0 }
    }

    /// The tile of a plain layer of exactly `rows`.
    static func plainTile(_ rows: [Row], in folder: TemporaryFolder) throws -> [UInt8] {
        let path = folder.file("kept-\(rows.count).csv")
        try Data(csv(rows).utf8).write(to: URL(fileURLWithPath: path))
        let data = try LayerData.load(path: path)
        let service = try TileService(layers: [try ServedLayer(name: "q", settings: .paletteDefault, data: data)])
        return FilterRouteTests.answer(service, "/q/\(tile).png").body
    }

    @Test(
        "filtered tiles after live points equal a layer of exactly the file's and live points kept",
        arguments: [
            ("datetime=2024-03-01/2024-09-01&category=kind:theft", "2024-03-01/2024-09-01", ["theft"]),
            ("category=kind:arson,fraud", "../..", ["arson", "fraud"]),
            ("datetime=2024-06-01/..", "2024-06-01/..", ["theft", "burglary", "a,b", "fraud", "arson"]),
        ])
    func liveKept(_ query: String, window text: String, kinds: [String]) throws {
        let folder = try TemporaryFolder("live-filters")
        defer { folder.remove() }
        let service = try Self.service(in: folder)
        let window = try TimeWindow(parsing: text)
        // Drawn (and cached) before the points come: the change must reach it.
        let before = FilterRouteTests.answer(service, "/p/\(Self.tile).png?\(query)")
        #expect(before.status == 200 || query.contains("arson"))
        let posted = Self.post(service, Self.csv(Self.live))
        #expect(posted.status == 200, "\(posted.text)")
        let after = FilterRouteTests.answer(service, "/p/\(Self.tile).png?\(query)")
        #expect(after.status == 200)
        let kept = (Self.file + Self.live).filter { window.contains($0.time) && kinds.contains($0.kind) }
        #expect(kept.count > 50)
        let expected = try Self.plainTile(kept, in: folder)
        #expect(!expected.isEmpty && after.body == expected)
        #expect(before.body != after.body)
    }

    @Test("the facets follow: a value first seen live is known, the time range grows")
    func facets() throws {
        let folder = try TemporaryFolder("live-facets")
        defer { folder.remove() }
        let service = try Self.service(in: folder)
        #expect(FilterRouteTests.answer(service, "/p/\(Self.tile).png?category=kind:arson").status == 400)
        let later = Row(latitude: -37.81, longitude: 144.96, weight: 2, time: 1_767_225_600, kind: "arson")
        #expect(Self.post(service, Self.csv([later])).status == 200)
        #expect(FilterRouteTests.answer(service, "/p/\(Self.tile).png?category=kind:arson").status == 200)
        #expect(FilterRouteTests.answer(service, "/p/\(Self.tile).png?datetime=2026-01-01/2026-01-02").status == 200)
        #expect(FilterRouteTests.answer(service, "/p/\(Self.tile).png?datetime=2025-06-01/2025-06-02").status == 204)
    }

    @Test(
        "a body without the columns or with a bad value is a 400 naming it, and nothing changes",
        arguments: [
            ("lat,lng,weight,kind\n-37.81,144.96,1,theft\n", "when"),
            ("lat,lng,weight,when\n-37.81,144.96,1,1709251200\n", "kind"),
            ("lat,lng,weight,when,kind\n-37.81,144.96,1,1709251200,theft\n-37.8,144.9,1,soon,theft\n", ":3"),
            ("lat,lng,weight,when,kind\n-37.81,144.96,1,1709251200,\n", "category"),
        ])
    func badBodies(_ body: String, named: String) throws {
        let folder = try TemporaryFolder("live-filter-400")
        defer { folder.remove() }
        let service = try Self.service(in: folder)
        let before = FilterRouteTests.answer(service, "/p/\(Self.tile).png?category=kind:theft")
        let answer = Self.post(service, body)
        #expect(answer.status == 400 && answer.text.contains(named), "\(answer.text)")
        #expect(FilterRouteTests.answer(service, "/p/\(Self.tile).png?category=kind:theft").body == before.body)
        #expect(FilterRouteTests.answer(service, "/p/\(Self.tile).png").status == 200)
    }

    @Test("DELETE on a layer with times or categories is refused, naming why")
    func removalRefused() throws {
        let folder = try TemporaryFolder("live-filter-delete")
        defer { folder.remove() }
        let service = try Self.service(in: folder)
        let answer = Self.post(service, Self.csv([Self.file[0]]), method: "DELETE")
        #expect(answer.status == 400 && answer.text.contains("cannot be removed"), "\(answer.text)")
    }
}

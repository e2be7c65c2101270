import Foundation
import HeatmapKit
import HeatmapTestSupport
import Testing

/// URL layers over files and over a real loopback upstream that misbehaves in every way.
@Suite struct URLTileLayerTests {
    /// The timeout of layers expected to succeed: long, since the tests assert answers and
    /// counts, never times, and a loaded machine can hold the task pool for seconds.
    static let patient = 120.0

    @Test("file:// tiles: an image as written, a missing file is no tile, garbage and wrong sizes are errors")
    func files() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let template = try writeSyntheticBase(in: folder, zoom: 3, tiles: [(1, 2)])
        try folder.write(Array("not a png".utf8), to: "3/4/4.png")
        try folder.write(try Upstream.solidPNG(side: 512, red: 1, green: 2, blue: 3, alpha: 4), to: "3/5/5.png")
        let layer = try URLTileLayer(template: template, name: "base")
        let written = try PNGEncoder().encode(syntheticTile(x: 1, y: 2, zoom: 3))
        #expect(try layer.tileFor(TileRequest(x: 1, y: 2, zoom: 3)) == .image(written))
        #expect(try layer.tileFor(TileRequest(x: 2, y: 2, zoom: 3)) == .noTile)
        #expect(throws: TileLayerError.self) { try layer.tileFor(TileRequest(x: 4, y: 4, zoom: 3)) }
        do {
            _ = try layer.tileFor(TileRequest(x: 5, y: 5, zoom: 3))
            Issue.record("a 512 px file in a 256 px layer must be an error")
        } catch {
            #expect("\(error)".contains("layer base"), "\(error)")
            #expect("\(error)".contains("512×512"), "\(error)")
        }
        #expect(throws: TileLayerError.self) { try layer.tileFor(TileRequest(x: 8, y: 0, zoom: 3)) }
        let none = URLTileLayer { _, _, _ in nil }
        #expect(try none.tileFor(TileRequest(x: 0, y: 0, zoom: 0)) == .noTile)
    }

    @Test("templates need {z}, {x} and {y} and a file, http or https URL; {-y} is the TMS row")
    func templates() throws {
        #expect(throws: TileLayerError.self) { try URLTileLayer(template: "https://a/{z}/{x}.png") }
        #expect(throws: TileLayerError.self) { try URLTileLayer(template: "ftp://a/{z}/{x}/{y}.png") }
        _ = try URLTileLayer(template: "https://a/{z}/{x}/{-y}.png")
    }

    @Test(
        "http: good PNGs are images; 404 and 204 are no tile; 500, garbage, a closed connection, a body cut short, a hang and a trickle are not available yet"
    )
    func upstreamAnswers() async throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        func layer(_ mode: String, timeout: Double = URLTileLayerTests.patient) throws -> URLTileLayer {
            try URLTileLayer(template: upstream.template(mode), name: mode, timeout: timeout)
        }
        let request = TileRequest(x: 1, y: 1, zoom: 2)
        #expect(try await layer("png").tile(request) == .image(upstream.png))
        #expect(try await layer("404").tile(request) == .noTile)
        #expect(try await layer("204").tile(request) == .noTile)
        #expect(try await layer("500").tile(request) == .notAvailableYet)
        #expect(try await layer("garbage").tile(request) == .notAvailableYet)
        #expect(try await layer("close").tile(request) == .notAvailableYet)
        #expect(try await layer("cut").tile(request) == .notAvailableYet)
        #expect(try await layer("hang", timeout: 0.5).tile(request) == .notAvailableYet)
        #expect(try await layer("trickle", timeout: 0.5).tile(request) == .notAvailableYet)
        await #expect(throws: TileLayerError.self) { try await layer("big").tile(request) }
        // The synchronous request, from a thread of its own, the same.
        let png = try layer("png")
        let hang = try layer("hang", timeout: 0.5)
        let failing = try layer("500")
        #expect(try await onThread { try png.tileFor(request) } == .image(upstream.png))
        #expect(try await onThread { try hang.tileFor(request) } == .notAvailableYet)
        #expect(try await onThread { try failing.tileFor(request) } == .notAvailableYet)
        // Nothing is broken: the upstream and the layers still answer.
        #expect(try await png.tile(TileRequest(x: 2, y: 1, zoom: 2)) == .image(upstream.png))
    }

    @Test("a body beyond the limit is cut off at once: not available yet, and the layer still works")
    func flood() async throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        let flood = try URLTileLayer(
            template: upstream.template("flood"), timeout: Self.patient, maximumTileBytes: 1 << 20)
        #expect(try await flood.tile(TileRequest(x: 0, y: 0, zoom: 0)) == .notAvailableYet)
        #expect(upstream.snapshot.floodBytesSent >= 1 << 20, "the body was cut off beyond the limit, not before")
        let good = try URLTileLayer(template: upstream.template("png"), timeout: Self.patient)
        #expect(try await good.tile(TileRequest(x: 0, y: 0, zoom: 0)) == .image(upstream.png))
    }

    @Test("URLSession follows no redirect, to the same origin or another: not available yet, one request")
    func redirects() async throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        for mode in ["redirect-png", "redirect-away"] {
            let layer = try URLTileLayer(template: upstream.template(mode), timeout: Self.patient)
            #expect(try await layer.tile(TileRequest(x: 1, y: 0, zoom: 1)) == .notAvailableYet, "\(mode)")
        }
        #expect(upstream.snapshot.paths == ["/redirect-png/1/1/0.png", "/redirect-away/1/1/0.png"])
    }

    @Test("images and no tile are cached, not-available-yet is not; clearTileCache() asks again")
    func caching() async throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        let good = try URLTileLayer(template: upstream.template("png"), timeout: Self.patient)
        let failing = try URLTileLayer(template: upstream.template("500"), timeout: Self.patient)
        let request = TileRequest(x: 0, y: 0, zoom: 1)
        _ = try await good.tile(request)
        _ = try await good.tile(request)
        #expect(upstream.snapshot.total == 1)
        _ = try await failing.tile(request)
        _ = try await failing.tile(request)
        #expect(upstream.snapshot.total == 3)
        let generation = good.cacheGeneration
        good.clearTileCache()
        #expect(good.cacheGeneration != generation)
        _ = try await good.tile(request)
        #expect(upstream.snapshot.total == 4)
    }

    @Test("requests in flight to one host stay within the bound, counted at the upstream", arguments: [1, 2, 3])
    func boundedInFlight(limit: Int) async throws {
        let upstream = try Upstream(slowDelay: 0.1)
        defer { upstream.stop() }
        let layer = try URLTileLayer(
            template: upstream.template("slow"), timeout: Self.patient, maximumRequestsPerHost: limit, cacheBytes: 0)
        let answers = try await withThrowingTaskGroup(of: TileResult.self) { group in
            for x in 0..<12 { group.addTask { try await layer.tile(TileRequest(x: x % 8, y: x / 8, zoom: 3)) } }
            var answers: [TileResult] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
        #expect(answers.count == 12)
        #expect(answers.allSatisfy { $0 == .image(upstream.png) })
        let counts = upstream.snapshot
        #expect(counts.total == 12)
        #expect(counts.maximumInFlight <= limit, "\(counts.maximumInFlight) in flight, bound \(limit)")
        #expect(counts.maximumInFlight >= 1)
    }

    @Test("requests for a tile being fetched share the fetch")
    func shared() async throws {
        let upstream = try Upstream(slowDelay: 0.2)
        defer { upstream.stop() }
        let layer = try URLTileLayer(template: upstream.template("slow"), timeout: Self.patient, cacheBytes: 0)
        let answers = try await withThrowingTaskGroup(of: TileResult.self) { group in
            for _ in 0..<8 { group.addTask { try await layer.tile(TileRequest(x: 1, y: 1, zoom: 1)) } }
            var answers: [TileResult] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
        #expect(answers == Array(repeating: .image(upstream.png), count: 8))
        #expect(upstream.snapshot.total < 8, "\(upstream.snapshot.total) fetches for 8 requests at once")
    }

    @Test("waiting for a slot is bounded too: a hanging host gives not available yet to the queue behind it")
    func boundedWait() async throws {
        let upstream = try Upstream()
        defer { upstream.stop() }
        let layer = try URLTileLayer(template: upstream.template("hang"), timeout: 0.5, maximumRequestsPerHost: 1)
        let answers = try await withThrowingTaskGroup(of: TileResult.self) { group in
            for x in 0..<4 { group.addTask { try await layer.tile(TileRequest(x: x, y: 0, zoom: 2)) } }
            var answers: [TileResult] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
        #expect(answers == Array(repeating: .notAvailableYet, count: 4))
        // The layer holds one slot at a time; the upstream counts a timed-out request's handler until
        // its poll sees the close, so the next request may overlap it there by one.
        #expect(upstream.snapshot.maximumInFlight <= 2)
    }
}

import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import Testing

/// `radius-meters=`, `radius-latitude=`, `aggregate=`, `min-density=` and `value-range=`
/// through the server: the library's bytes, cached apart, named 400s.
@Suite struct KernelRouteTests {
    /// A server with the police stations (no values) and `priced`, the same points with a
    /// value each (longitude − 141) read from CSV through `--value price`.
    final class Servers: Sendable {
        let server: HTTPServer
        let csv: String
        let values: ValueIndex

        init() throws {
            let points = try JSONPointReader.read(contentsOf: try TestServer.fixturePath())
            csv =
                TestScratch.folder.appendingPathComponent("heatmap-priced-\(UUID().uuidString).csv")
                .path
            var text = "lat,lng,price\n"
            for p in points {
                text += "\(p.coordinate.latitude),\(p.coordinate.longitude),\(p.coordinate.longitude - 141)\n"
            }
            try Data(text.utf8).write(to: URL(fileURLWithPath: csv))
            var options = PointReadOptions()
            options.valueColumn = "price"
            let data = try LayerData.load(path: csv, options: options)
            values = try #require(data.values)
            let police = try ServedLayer(name: "police", data: try LayerData.load(path: try TestServer.fixturePath()))
            let priced = try ServedLayer(name: "priced", source: csv, data: data)
            let stats = ServerStats()
            let service = try TileService(layers: [police, priced], options: ServerOptions(), stats: stats)
            server = try HTTPServer(host: "127.0.0.1", port: 0, responder: service, stats: stats)
            server.start()
        }

        func client() throws -> TestClient { try TestClient(port: server.port, timeout: 10) }

        func stop() {
            server.shutdown(grace: 2)
            server.waitUntilStopped()
            try? FileManager.default.removeItem(atPath: csv)
        }
    }

    @Test("radius-meters= draws the library's tile with radiusMeters, and each value apart")
    func radiusMeters() throws {
        let servers = try Servers()
        defer { servers.stop() }
        let client = try servers.client()
        let points = try JSONPointReader.read(contentsOf: try TestServer.fixturePath())
        var bodies: Set<[UInt8]> = []
        for (query, meters, latitude) in [
            ("radius-meters=4000", 4000.0, nil), ("radius-meters=12000", 12000, nil),
            ("radius-meters=4000&radius-latitude=0", 4000, 0.0),
        ] as [(String, Double, Double?)] {
            let response = try client.get("/police/7/115/78@2x.png?" + query)
            #expect(response.status == 200, "\(query): \(response.text)")
            var settings = HeatmapSettings()
            settings.radiusMeters = meters
            settings.radiusLatitude = latitude
            let expected = try HeatmapTileLayer(weightedData: points, settings: settings).tileFor(
                x: 115, y: 78, zoom: 7, scale: 2)
            #expect(response.body == expected.png, "\(query)")
            bodies.insert(response.body)
        }
        bodies.insert(try client.get("/police/7/115/78@2x.png").body)
        #expect(bodies.count == 4)
    }

    @Test("aggregate=mean draws the mean of a layer read with values; min-density and value-range apply")
    func mean() throws {
        let servers = try Servers()
        defer { servers.stop() }
        let client = try servers.client()
        for (query, minimum, range) in [
            ("aggregate=mean", 0.0, nil), ("aggregate=mean&min-density=2", 2, nil),
            ("aggregate=mean&value-range=0,10&radius-meters=20000", 0, 0.0...10.0),
        ] as [(String, Double, ClosedRange<Double>?)] {
            let response = try client.get("/priced/6/57/39.png?" + query)
            #expect(response.status == 200, "\(query): \(response.text)")
            var settings = HeatmapSettings()
            settings.aggregate = .mean
            settings.minimumDensity = minimum
            settings.valueRange = range
            if query.contains("radius-meters") { settings.radiusMeters = 20000 }
            let expected = try HeatmapTileLayer(values: servers.values, settings: settings).tileFor(
                x: 57, y: 39, zoom: 6)
            #expect(response.body == expected.png, "\(query)")
        }
        #expect(try client.get("/priced/6/57/39.png?aggregate=mean&min-density=1e12").status == 204)
        #expect(try client.get("/priced/6/57/39.png").body == (try client.get("/police/6/57/39.png").body))
    }

    @Test("bad values, and the mean of a layer without values, are 400s that say why")
    func badValues() throws {
        let servers = try Servers()
        defer { servers.stop() }
        let client = try servers.client()
        for (path, words) in [
            ("/police/7/115/78.png?radius-meters=0", "radius-meters"),
            ("/police/7/115/78.png?radius-meters=nan", "radius-meters"),
            ("/police/7/115/78.png?radius-meters=5000&radius-latitude=91", "radius-latitude"),
            ("/priced/7/115/78.png?aggregate=median", "aggregate"),
            ("/priced/7/115/78.png?aggregate=mean&min-density=-1", "min-density"),
            ("/priced/7/115/78.png?aggregate=mean&value-range=5,1", "value-range"),
            ("/police/7/115/78.png?aggregate=mean", "--value"),
        ] {
            let response = try client.get(path)
            #expect(response.status == 400, "\(path)")
            #expect(response.text.contains(words), "\(path): \(response.text)")
        }
    }
}

extension KernelRouteTests {
    @Test("the map page has a radius-in-metres control that sets radius-meters=")
    func pageControl() throws {
        let servers = try Servers()
        defer { servers.stop() }
        let catalog = try servers.client().get("/catalog").text
        let control =
            #"{"kind":"number","label":"or metres","min":0,"name":"radius-meters","placeholder":"off","step":100}"#
        #expect(catalog.contains(control))
    }
}

extension KernelRouteTests {
    @Test("TileJSON's bounds are padded by the reach in metres at the lowest zoom")
    func tileJSONBounds() throws {
        let servers = try Servers()
        defer { servers.stop() }
        let client = try servers.client()
        func west(_ path: String) throws -> Double {
            let json = try client.get(path).body
            let object = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any]
            return (object?["bounds"] as? [Double])?.first ?? .nan
        }
        let points = try west("/police.json")
        let small = try west("/police.json?radius-meters=1000")
        let large = try west("/police.json?radius-meters=5000000")
        #expect(small > points)
        #expect(large < points)
    }
}

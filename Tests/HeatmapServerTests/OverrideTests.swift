import HeatmapKit
import HeatmapServer
import Testing

@Suite struct OverrideTests {
    @Test func presetsExistAndParse() throws {
        for name in GradientPresets.names { #expect(GradientPresets.named(name) != nil, "\(name)") }
        #expect(GradientPresets.named("default") == .paletteDefault)
        let custom = try GradientPresets.parse("#0000ff:0.2,ff0000:1")
        #expect(custom.colors == [RGBAColor(red: 0, green: 0, blue: 255), RGBAColor(red: 255, green: 0, blue: 0)])
        #expect(custom.startPoints == [0.2, 1])
        #expect(throws: OverrideError.self) { try GradientPresets.parse("rainbow") }
        #expect(throws: OverrideError.self) { try GradientPresets.parse("ff0000:1,00ff00:0.5") }
        #expect(throws: OverrideError.self) { try GradientPresets.parse("zzzzzz:1") }
    }

    @Test func queryOverridesApplyAndKeyTheCache() throws {
        let overrides = try SettingOverrides(query: [
            ("radius", "35"), ("opacity", "0.5"), ("gradient", "fire"), ("max", "4"), ("_", "123"),
        ])
        let settings = overrides.applied(to: .default)
        #expect(settings.radius == 35 && settings.opacity == 0.5 && settings.maximumIntensity == 4)
        #expect(settings.gradient == GradientPresets.named("fire"))
        #expect(overrides.query == "radius=35&opacity=0.5&gradient=fire&max-intensity=4.0")
        #expect(
            try SettingOverrides(query: [("max", "auto")]).applied(to: HeatmapSettings(maximumIntensity: 3))
                .maximumIntensity == nil)
        #expect(try SettingOverrides(query: [("unrelated", "x")]).isEmpty)

        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        var etags: Set<String> = []
        for query in ["", "?radius=40", "?opacity=0.3", "?gradient=viridis", "?gradient=0000ff:0.1,ff0000:1", "?max=2"]
        {
            let response = try client.get("/police/7/115/78.png" + query)
            #expect(response.status == 200, "\(query)")
            etags.insert(response.header("ETag") ?? "")
        }
        #expect(etags.count == 6)
        // The same settings spelled differently share a cache entry.
        _ = try client.get("/police/7/115/78.png?opacity=0.30&_=1")
        #expect(try server.metric("heatmap_tile_cache_hits_total") == 1)
        #expect(try server.metric("heatmap_tile_render_seconds_count") == 6)
    }

    @Test func layerNamesAreChecked() throws {
        let data = try LayerData(points: [WeightedLatLng(coordinate: Coordinate(latitude: 1, longitude: 2))])
        for bad in ["", ".hidden", "a/b", "a b", "a%2e", String(repeating: "x", count: 65)] {
            #expect(throws: OverrideError.self) { try ServedLayer(name: bad, data: data) }
        }
        #expect(throws: OverrideError.self) {
            try ServedLayer(name: "ok", settings: HeatmapSettings(radius: 5), data: data)
        }
        let layer = try ServedLayer(name: "cities-2024_v1.0", data: data)
        #expect(throws: OverrideError.self) { try TileService(layers: [layer, layer]) }
        #expect(throws: OverrideError.self) { try TileService(layers: []) }
    }

    @Test func aLayerMayBeNamedLikeARoute() throws {
        let data = try LayerData(points: [WeightedLatLng(coordinate: Coordinate(latitude: -37.8, longitude: 145))])
        let service = try TileService(
            layers: ["leaflet", "catalog", "health"].map { try ServedLayer(name: $0, data: data) })
        for name in ["leaflet", "catalog", "health"] {
            guard case .deferred = service.respond(to: HTTPRequest(method: "GET", target: "/\(name)/0/0/0.png")) else {
                Issue.record("/\(name)/0/0/0.png is a tile")
                continue
            }
            guard case .response(let json) = service.respond(to: HTTPRequest(method: "GET", target: "/\(name).json"))
            else {
                Issue.record("/\(name).json answers at once")
                continue
            }
            #expect(json.status == .ok)
        }
    }

    @Test func withoutLocalLeafletThePageUsesTheCDNWithIntegrityHashes() throws {
        let data = try LayerData(points: [WeightedLatLng(coordinate: Coordinate(latitude: -37.8, longitude: 145))])
        var options = ServerOptions()
        options.leafletDirectory = nil
        options.baseMapURL = "https://tiles.example/{z}/{x}/{y}.png\"</script>"
        let service = try TileService(layers: [try ServedLayer(name: "one", data: data)], options: options)
        guard case .response(let page) = service.respond(to: HTTPRequest(method: "GET", target: "/")) else {
            Issue.record("the page answers at once")
            return
        }
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains("https://unpkg.com/leaflet@1.9.4/dist/leaflet.js"))
        #expect(html.contains("integrity=\"sha256-20nQCchB9co0qIjJZRGuk2/Z9VM+kNiyxNV1lvTlZBo=\""))
        #expect(html.contains("integrity=\"sha256-p4NxAoJBhIIN+hmNHrzRCf9tD/miZyoHS5obTRR9BMY=\""))
        // A configured string cannot end the script element.
        #expect(!html.contains("png\"</script>"))
        guard case .response(let asset) = service.respond(to: HTTPRequest(method: "GET", target: "/leaflet/leaflet.js"))
        else {
            Issue.record("/leaflet/leaflet.js answers at once")
            return
        }
        #expect(asset.status == .notFound)
    }

    @Test func inProcessRespondsWithoutSockets() throws {
        let data = try LayerData(points: [WeightedLatLng(coordinate: Coordinate(latitude: -37.8, longitude: 145))])
        let service = try TileService(layers: [try ServedLayer(name: "one", data: data)])
        guard case .response(let health) = service.respond(to: HTTPRequest(method: "GET", target: "/health")) else {
            Issue.record("health should answer at once")
            return
        }
        #expect(health.status == .ok)
        guard case .deferred = service.respond(to: HTTPRequest(method: "GET", target: "/one/0/0/0.png")) else {
            Issue.record("an uncached tile renders off the I/O thread")
            return
        }
        guard case .response(let bad) = service.respond(to: HTTPRequest(method: "DELETE", target: "/one/0/0/0.png"))
        else {
            Issue.record("405 at once")
            return
        }
        #expect(bad.status == .methodNotAllowed)
    }
}

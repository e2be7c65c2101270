import Foundation
import HeatmapServer
import HeatmapTestSupport
import Testing

/// A configuration file's misspelt key or wrong value names itself; nothing is silently left out.
@Suite struct ConfigurationKeysTests {
    private func error(loading text: String) throws -> String? {
        let folder = try TemporaryFolder("config-keys")
        defer { folder.remove() }
        let path = folder.file("serve.json")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try ServeConfiguration.load(path: path)
            return nil
        } catch {
            #expect(error.description.hasPrefix(path + ": "), "the file is named: \(error.description)")
            return error.description
        }
    }

    @Test(arguments: [
        (#"{"prot": 8080}"#, #"unknown key "prot" at the top level"#),
        (#"{"defaults": {"radus": 30}}"#, #"unknown key "radus" in "defaults""#),
        (
            #"{"layers": [{"file": "a.json"}, {"file": "b.json", "opactiy": 0.5}]}"#,
            #"unknown key "opactiy" in layer 2"#
        ),
        (#"{"stacks": [{"name": "s", "layers": [], "zIndex": 1}]}"#, #"unknown key "zIndex" in stack 1"#),
    ])
    func anUnknownKeyIsAnErrorNamingIt(text: String, expected: String) throws {
        let message = try #require(try error(loading: text))
        #expect(message.contains(expected), "\(message)")
    }

    @Test func aWrongValueNamesItsKey() throws {
        let port = try #require(try error(loading: #"{"port": 8080.5}"#))
        #expect(port.contains("port"), "\(port)")
        let name = try #require(try error(loading: #"{"layers": [{"file": "a.json"}, {"name": 3, "file": "b"}]}"#))
        #expect(name.contains("layers[1].name") && name.contains("a string"), "\(name)")
        let json = try #require(try error(loading: #"{"port": 80,"#))
        #expect(json.contains("not valid JSON"), "\(json)")
    }

    @Test func everyDocumentedKeyIsKnown() throws {
        let text = """
            {"host": "127.0.0.1", "port": 8080, "cacheMB": 256, "cacheControl": "public, max-age=300",
             "documentCacheControl": "no-cache", "cors": true, "emptyTile": "png", "watch": true,
             "attribution": "a", "upstreamTimeout": 10,
             "defaults": {"radius": 20, "opacity": 0.7, "gradient": "default", "maxIntensity": 2,
                          "colorScale": "sqrt", "colorMapSize": 256, "minZoomIntensity": 3, "maxZoomIntensity": 9,
                          "maxPercentile": 99, "radiusMeters": 500, "radiusLatitude": 40, "aggregate": "sum",
                          "value": "v", "minDensity": 0.5, "valueRange": [0, 1]},
             "layers": [{"name": "police", "file": "police.json", "radius": 30},
                        {"name": "osm", "url": "https://tile.openstreetmap.org/{z}/{x}/{y}.png"}],
             "stacks": [{"name": "map", "layers": ["osm", "police"]}]}
            """
        #expect(try error(loading: text) == nil)
    }
}

import Foundation
import HeatmapKit

/// The JSON configuration file of `heatmap serve --config FILE.json`:
///
/// ```json
/// {"host": "127.0.0.1", "port": 8080, "cacheMB": 256, "cacheControl": "public, max-age=300",
///  "documentCacheControl": "no-cache", "cors": true, "emptyTile": "png", "watch": true,
///  "attribution": "Police stations: data.gov.au",
///  "defaults": {"radius": 20, "opacity": 0.7, "gradient": "default", "radiusMeters": 500},
///  "layers": [{"name": "police", "file": "police_stations.json", "radius": 30, "gradient": "fire",
///              "opacity": 0.8, "maxIntensity": 5},
///             {"name": "prices", "file": "sales.csv", "aggregate": "mean", "value": "price",
///              "minDensity": 0.5, "valueRange": [100000, 900000]},
///             {"name": "osm", "url": "https://tile.openstreetmap.org/{z}/{x}/{y}.png"}],
///  "stacks": [{"name": "police_map", "layers": ["osm", "police"]}], "upstreamTimeout": 10}
/// ```
///
/// Every field is optional; files are relative to the configuration file.
package struct ServeConfiguration: Decodable, Sendable {
    /// The address to bind.
    package var host: String?
    /// The port.
    package var port: Int?
    /// The tile cache size in MiB.
    package var cacheMB: Int?
    /// `Cache-Control` of tiles.
    package var cacheControl: String?
    /// `Cache-Control` of TileJSON, the catalog and the page.
    package var documentCacheControl: String?
    /// Whether to send CORS headers.
    package var cors: Bool?
    /// What empty tiles answer: `"204"` or `"png"`.
    package var emptyTile: String?
    /// Whether to reload a layer's data when its file changes.
    package var watch: Bool?
    /// Attribution for TileJSON and the map.
    package var attribution: String?
    /// Settings for every layer that does not set its own.
    package var defaults: LayerSettings?
    /// The layers.
    package var layers: [Layer]?
    /// Named stacks of the layers, bottom first.
    package var stacks: [StackDefinition]?
    /// Seconds a URL layer waits for its upstream (default 10).
    package var upstreamTimeout: Double?

    /// A layer: a name, a file (and settings) or a URL template.
    ///
    /// The settings' keys stand beside `name`, `file` and `url` in the layer's object, as in `defaults`:
    /// `{"name": "police", "file": "police.json", "radius": 30}`.
    package struct Layer: Decodable, Sendable {
        /// The name in URLs (default: the file's name without extension).
        package var name: String?
        /// The data file (points or pre-rendered tiles); either this or ``url``.
        package var file: String?
        /// A URL layer's template: `https://host/{z}/{x}/{y}.png`, `http://…` or `file:///dir/{z}/{x}/{y}.png`.
        package var url: String?
        /// The layer's own drawing settings, decoded from the same object (its keys win over `defaults`).
        package var settings: LayerSettings

        /// Creates a layer as the file would give it.
        package init(name: String? = nil, file: String? = nil, url: String? = nil, settings: LayerSettings = .init()) {
            self.name = name
            self.file = file
            self.url = url
            self.settings = settings
        }

        private enum CodingKeys: String, CodingKey {
            case name, file, url
        }

        /// Decodes `name`, `file` and `url`, and the settings' keys from the same object.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            file = try container.decodeIfPresent(String.self, forKey: .file)
            url = try container.decodeIfPresent(String.self, forKey: .url)
            settings = try LayerSettings(from: decoder)
        }
    }

    /// Drawing settings as written in the file: any setting of ``SettingsSchema`` by its key
    /// (`radius`, `maxIntensity`, `radiusMeters`, … or its query name, `max-intensity`),
    /// read by the same parser as its flag and query parameter (a number, a string such as
    /// `"auto"`, or for `valueRange` `[LO, HI]`), and `value`, the mean's column.
    package struct LayerSettings: Decodable, Equatable, Sendable {
        /// The settings given, by their canonical names, with their values as text.
        package var given: [String: String]
        /// The column or field whose mean to draw (`--value`), a data option of the layer's file.
        package var value: String?
        /// The values of a setting that may be given more than once, written as an array of
        /// strings (`"category": ["kind:theft", "district:north"]`), by setting name.
        package var lists: [String: [String]] = [:]

        /// Creates settings as the file would give them: `given` by setting name (`"radius":
        /// "30"`) or configuration key.
        package init(_ given: [String: String] = [:], value: String? = nil) {
            self.given = given
            self.value = value
        }

        /// The keys beside the settings that a layer's object holds.
        static let layerKeys: Set<String> = ["name", "file", "url"]

        /// Decodes every setting key of the object (the layer's `name`, `file` and `url` aside).
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            var given: [String: String] = [:]
            for key in container.allKeys where !Self.layerKeys.contains(key.stringValue) {
                if key.stringValue == "value" {
                    value = try container.decode(String.self, forKey: key)
                    continue
                }
                guard let row = SettingsSchema.configIndex[key.stringValue] else { continue }
                let name = SettingsSchema.rows[row].name
                if SettingsSchema.rows[row].repeatable, let texts = try? container.decode([String].self, forKey: key) {
                    lists[name] = texts
                    continue
                }
                given[name] = try Self.text(container, key)
            }
            self.given = given
        }

        /// A JSON value as the text a flag or query parameter would give: a string as it is, a
        /// whole number without a fraction, an array's values joined by commas.
        private static func text(_ container: KeyedDecodingContainer<AnyKey>, _ key: AnyKey) throws -> String {
            if let text = try? container.decode(String.self, forKey: key) { return text }
            if let bool = try? container.decode(Bool.self, forKey: key) { return String(bool) }
            if let number = try? container.decode(Double.self, forKey: key) { return number.settingText }
            if let numbers = try? container.decode([Double].self, forKey: key) {
                return numbers.map(\.settingText).joined(separator: ",")
            }
            throw DecodingError.typeMismatch(
                String.self,
                DecodingError.Context(
                    codingPath: container.codingPath + [key], debugDescription: "expected a number, string or array"))
        }

        /// The settings given, read by ``SettingsSchema``.
        ///
        /// - Throws: ``OverrideError`` with the message every front end gives for the value.
        package func overrides() throws(OverrideError) -> SettingOverrides {
            do {
                return try SettingOverrides(
                    given.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
                        + lists.sorted { $0.key < $1.key }.flatMap { list in list.value.map { (list.key, $0) } },
                    index: SettingsSchema.index,
                    unknown: { SettingError("unknown setting \($0)") })
            } catch {
                throw OverrideError(error.description)
            }
        }

        /// Applies the values given to `base`, checked as the flags and query parameters are.
        ///
        /// - Throws: ``OverrideError`` for a value a setting does not take, or settings that do
        ///   not draw together.
        package func applied(to base: HeatmapSettings) throws(OverrideError) -> HeatmapSettings {
            let settings = try overrides().applied(to: base)
            do {
                try settings.validate()
            } catch {
                throw OverrideError(error.description)
            }
            if let value, value.isEmpty { throw OverrideError("value is the name of a column or field, got \"\"") }
            return settings
        }
    }

    /// Any key of a JSON object.
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// An empty configuration: every value from flags or defaults.
    package init() {}

    /// Reads a configuration file; layer files become relative to its folder.
    ///
    /// - Throws: ``OverrideError`` naming the file and what is wrong.
    package static func load(path: String) throws(OverrideError) -> ServeConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OverrideError("\(path): cannot be read")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw OverrideError("\(path): not valid JSON (\(detail ?? "\(error)"))")
        }
        try checkKeys(of: object, path: path)
        var configuration: ServeConfiguration
        do {
            configuration = try JSONDecoder().decode(ServeConfiguration.self, from: data)
        } catch {
            throw OverrideError("\(path): \(describe(error))")
        }
        let folder = (path as NSString).deletingLastPathComponent
        for i in configuration.layers?.indices ?? (0..<0) {
            guard (configuration.layers?[i].file == nil) != (configuration.layers?[i].url == nil) else {
                throw OverrideError("\(path): layer \(i + 1) needs either \"file\" or \"url\"")
            }
            if let file = configuration.layers?[i].file, !file.hasPrefix("/"), !folder.isEmpty {
                configuration.layers?[i].file = folder + "/" + file
            }
        }
        return configuration
    }
}

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
public struct ServeConfiguration: Decodable, Sendable {
    /// The address to bind.
    public var host: String?
    /// The port.
    public var port: Int?
    /// The tile cache size in MiB.
    public var cacheMB: Int?
    /// `Cache-Control` of tiles.
    public var cacheControl: String?
    /// `Cache-Control` of TileJSON, the catalog and the page.
    public var documentCacheControl: String?
    /// Whether to send CORS headers.
    public var cors: Bool?
    /// What empty tiles answer: `"204"` or `"png"`.
    public var emptyTile: String?
    /// Whether to reload a layer's data when its file changes.
    public var watch: Bool?
    /// Attribution for TileJSON and the map.
    public var attribution: String?
    /// Settings for every layer that does not set its own.
    public var defaults: LayerSettings?
    /// The layers.
    public var layers: [Layer]?
    /// Named stacks of the layers, bottom first.
    public var stacks: [StackDefinition]?
    /// Seconds a URL layer waits for its upstream (default 10).
    public var upstreamTimeout: Double?

    /// A layer: a name, a file (and settings) or a URL template.
    ///
    /// The settings' keys stand beside `name`, `file` and `url` in the layer's object, as in `defaults`:
    /// `{"name": "police", "file": "police.json", "radius": 30}`.
    public struct Layer: Decodable, Sendable {
        /// The name in URLs (default: the file's name without extension).
        public var name: String?
        /// The data file (points or pre-rendered tiles); either this or ``url``.
        public var file: String?
        /// A URL layer's template: `https://host/{z}/{x}/{y}.png`, `http://…` or `file:///dir/{z}/{x}/{y}.png`.
        public var url: String?
        /// The layer's own drawing settings, decoded from the same object (its keys win over `defaults`).
        public var settings: LayerSettings

        /// Creates a layer as the file would give it.
        public init(name: String? = nil, file: String? = nil, url: String? = nil, settings: LayerSettings = .init()) {
            self.name = name
            self.file = file
            self.url = url
            self.settings = settings
        }

        private enum CodingKeys: String, CodingKey {
            case name, file, url
        }

        /// Decodes `name`, `file` and `url`, and the settings' keys from the same object.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            file = try container.decodeIfPresent(String.self, forKey: .file)
            url = try container.decodeIfPresent(String.self, forKey: .url)
            settings = try LayerSettings(from: decoder)
        }
    }

    /// Drawing settings as written in the file.
    public struct LayerSettings: Decodable, Equatable, Sendable {
        /// Radius in points, 10...50.
        public var radius: Int?
        /// Opacity 0...1.
        public var opacity: Double?
        /// A preset name or `COLOUR:STOP,…`.
        public var gradient: String?
        /// A fixed normalisation value (omit for each zoom's true maximum).
        public var maxIntensity: Double?
        /// `linear`, `sqrt` or `log` (`--color-scale`).
        public var colorScale: String?
        /// Entries of the colour map, 2...1048576 (`--color-map-size`).
        public var colorMapSize: Int?
        /// Below this zoom (0...22) M(z) is M(minZoomIntensity) (`--min-zoom-intensity`).
        public var minZoomIntensity: Int?
        /// Above this zoom (0...22) M(z) is M(maxZoomIntensity) (`--max-zoom-intensity`).
        public var maxZoomIntensity: Int?
        /// Normalise by this percentile (0 < P ≤ 100) of the zoom's non-zero pixels (`--max-percentile`).
        public var maxPercentile: Double?
        /// The radius in ground metres, converted per zoom (`--radius-meters`); wins over radius.
        public var radiusMeters: Double?
        /// The latitude the metres are measured at, -90...90 (`--radius-latitude`; default the data's middle).
        public var radiusLatitude: Double?
        /// `sum` or `mean` (`--aggregate`); mean needs ``value``.
        public var aggregate: String?
        /// The column or field whose mean to draw (`--value`).
        public var value: String?
        /// With mean: pixels whose density is below this stay clear (`--min-density`, default 0).
        public var minDensity: Double?
        /// With mean: the values at the ends of the ramp, `[LO, HI]` (`--value-range LO,HI`).
        public var valueRange: [Double]?

        /// Creates settings as the file would give them.
        public init(
            radius: Int? = nil, opacity: Double? = nil, gradient: String? = nil, maxIntensity: Double? = nil,
            colorScale: String? = nil, colorMapSize: Int? = nil, minZoomIntensity: Int? = nil,
            maxZoomIntensity: Int? = nil, maxPercentile: Double? = nil, radiusMeters: Double? = nil,
            radiusLatitude: Double? = nil, aggregate: String? = nil, value: String? = nil, minDensity: Double? = nil,
            valueRange: [Double]? = nil
        ) {
            self.radius = radius
            self.opacity = opacity
            self.gradient = gradient
            self.maxIntensity = maxIntensity
            self.colorScale = colorScale
            self.colorMapSize = colorMapSize
            self.minZoomIntensity = minZoomIntensity
            self.maxZoomIntensity = maxZoomIntensity
            self.maxPercentile = maxPercentile
            self.radiusMeters = radiusMeters
            self.radiusLatitude = radiusLatitude
            self.aggregate = aggregate
            self.value = value
            self.minDensity = minDensity
            self.valueRange = valueRange
        }

        /// Applies the values given to `base`, checked as the flags are (the key named in the error).
        ///
        /// - Throws: ``OverrideError`` for a gradient that does not parse or a value out of range.
        public func applied(to base: HeatmapSettings) throws(OverrideError) -> HeatmapSettings {
            var settings = base
            if let radius { settings.radius = radius }
            if let opacity { settings.opacity = opacity }
            if let colorMapSize, !(2...Gradient.maximumColorMapSize).contains(colorMapSize) {
                throw OverrideError("colorMapSize \(colorMapSize) is outside 2...\(Gradient.maximumColorMapSize)")
            }
            if let gradient {
                settings.gradient = try GradientPresets.parse(gradient, colorMapSize: colorMapSize)
            } else if let colorMapSize {
                do {
                    settings.gradient = try Gradient(
                        colors: settings.gradient.colors, startPoints: settings.gradient.startPoints,
                        colorMapSize: colorMapSize)
                } catch {
                    throw OverrideError("colorMapSize: \(error.description)")
                }
            }
            if let maxIntensity { settings.maximumIntensity = maxIntensity }
            if let colorScale {
                guard let scale = ColorScale(rawValue: colorScale) else {
                    throw OverrideError("colorScale is linear, sqrt or log, got \"\(colorScale)\"")
                }
                settings.colorScale = scale
            }
            if let minZoomIntensity { settings.minimumZoomIntensity = minZoomIntensity }
            if let maxZoomIntensity { settings.maximumZoomIntensity = maxZoomIntensity }
            if let maxPercentile { settings.maximumPercentile = maxPercentile }
            try applyKernel(to: &settings)
            do {
                try settings.validate()
            } catch {
                throw OverrideError(error.description)
            }
            return settings
        }
    }

    /// An empty configuration: every value from flags or defaults.
    public init() {}

    /// Reads a configuration file; layer files become relative to its folder.
    ///
    /// - Throws: ``OverrideError`` naming the file and what is wrong.
    public static func load(path: String) throws(OverrideError) -> ServeConfiguration {
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

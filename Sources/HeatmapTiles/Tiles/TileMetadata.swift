import HeatmapKit

/// What an archive records beside its tiles: MBTiles' `metadata` table, PMTiles' header and
/// JSON metadata, a folder's `metadata.json`.
public struct TileMetadata: Sendable, Hashable, Codable {
    /// The layer's name.
    public var name: String
    /// A sentence about the layer.
    public var description: String
    /// The data's attribution (may be empty).
    public var attribution: String
    /// The area the tiles cover.
    public var bounds: PointBounds
    /// A good first view: longitude, latitude and zoom.
    public var center: TileCenter
    /// The lowest zoom rendered.
    public var minZoom: Int
    /// The highest zoom rendered.
    public var maxZoom: Int
    /// Pixels per point: 1, 2 or 3 for tiles of 256, 512 or 768 pixels.
    public var scale: Int
    /// The options the tiles were rendered with, so that a render can be reproduced (and resumed).
    public var options: [String: String]
    /// Each zoom's legend (keys "0"..."22"; see TileLegend.swift), or `nil`: additive, so that
    /// resuming compares ``options`` alone and archives written before legends still resume.
    package var legends: [String: TileLegend]? = nil
    /// The tiles' image format; `nil` (archives written before WebP) is PNG.
    public var format: TileImageFormat? = nil

    /// The tiles' image format: ``format``, PNG when absent.
    public var imageFormat: TileImageFormat { format ?? .png }

    /// Creates metadata.
    public init(
        name: String, description: String = "", attribution: String = "", bounds: PointBounds,
        center: TileCenter, minZoom: Int, maxZoom: Int, scale: Int = 1, options: [String: String] = [:]
    ) {
        self.name = name
        self.description = description
        self.attribution = attribution
        self.bounds = bounds
        self.center = center
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.scale = scale
        self.options = options
    }

    /// The side of a tile in pixels.
    public var tileSize: Int { 256 * scale }

    /// The options as one line of JSON with sorted keys, as archives store them.
    package var optionsJSON: String {
        let pairs = options.keys.sorted().map { key in "\(Self.quoted(key)):\(Self.quoted(options[key] ?? ""))" }
        return "{" + pairs.joined(separator: ",") + "}"
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// The centre of a first view of a tile set.
public struct TileCenter: Sendable, Hashable, Codable {
    /// Degrees east.
    public var longitude: Double
    /// Degrees north.
    public var latitude: Double
    /// The zoom level.
    public var zoom: Int

    /// Creates a centre.
    public init(longitude: Double, latitude: Double, zoom: Int) {
        self.longitude = longitude
        self.latitude = latitude
        self.zoom = zoom
    }
}

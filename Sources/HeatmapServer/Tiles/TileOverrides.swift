import HeatmapKit

/// Per-request settings from the query: `radius`, `opacity`, `gradient` and `max` (a fixed
/// normalisation, or `auto`). Other parameters are ignored (and not part of the cache key).
public struct TileOverrides: Sendable, Hashable {
    /// Radius in points, 10...50.
    public var radius: Int?
    /// Opacity, 0...1.
    public var opacity: Double?
    /// The gradient, parsed.
    public private(set) var gradient: Gradient?
    /// The gradient as given (a preset name or stops), for URLs.
    public private(set) var gradientText: String?
    /// A fixed maximum intensity; `.some(nil)` for `auto` (each zoom's true maximum).
    public var maximum: Double??

    /// The names understood.
    public static let parameterNames = ["radius", "opacity", "gradient", "max"]

    /// No overrides.
    public init() {}

    /// Parses a request's query items.
    ///
    /// - Throws: ``OverrideError`` naming the parameter and the allowed values.
    public init(query items: [(name: String, value: String)]) throws(OverrideError) {
        for (name, value) in items {
            switch name {
            case "radius":
                guard let r = Int(value), HeatmapSettings.radiusRange.contains(r) else {
                    throw OverrideError("radius \"\(value)\" is not a whole number in 10...50")
                }
                radius = r
            case "opacity":
                guard let o = Double(value), o.isFinite, (0...1).contains(o) else {
                    throw OverrideError("opacity \"\(value)\" is not a number in 0...1")
                }
                opacity = o
            case "gradient":
                gradient = try GradientPresets.parse(value)
                gradientText = value
            case "max":
                if value == "auto" {
                    maximum = .some(nil)
                } else {
                    guard let m = Double(value), m.isFinite, m > 0 else {
                        throw OverrideError("max \"\(value)\" is not a number > 0 or auto")
                    }
                    maximum = .some(m)
                }
            default: continue
            }
        }
    }

    /// Whether nothing is overridden.
    public var isEmpty: Bool { radius == nil && opacity == nil && gradientText == nil && maximum == nil }

    /// The layer's settings with these applied.
    public func applied(to base: HeatmapSettings) -> HeatmapSettings {
        var settings = base
        if let radius { settings.radius = radius }
        if let opacity { settings.opacity = opacity }
        if let gradient { settings.gradient = gradient }
        if let maximum { settings.maximumIntensity = maximum }
        return settings
    }

    /// The overrides as a canonical query (`radius=30&gradient=fire`), empty when none.
    public var query: String {
        var parts: [String] = []
        if let radius { parts.append("radius=\(radius)") }
        if let opacity { parts.append("opacity=\(opacity)") }
        if let gradientText { parts.append("gradient=\(QueryEncoding.encode(gradientText))") }
        if let maximum { parts.append("max=\(maximum.map { "\($0)" } ?? "auto")") }
        return parts.joined(separator: "&")
    }
}

/// Percent-encoding for query values.
enum QueryEncoding {
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: ":"), UInt8(ascii: ","):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}

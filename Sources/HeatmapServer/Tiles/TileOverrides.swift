import HeatmapKit

/// Per-request settings from the query: `radius`, `opacity`, `gradient`, `color-map-size`,
/// `color-scale` (linear, sqrt, log), `max` (a fixed normalisation, or `auto`) and
/// `min-zoom-intensity`/`max-zoom-intensity` (zooms 0...22 beyond which M(z) holds, or `auto`).
/// Other parameters are ignored (and not part of the cache key).
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
    /// Entries of the colour map, 2...2^20; with no `gradient`, the layer's gradient resampled.
    public private(set) var colorMapSize: Int?
    /// How intensities pick colours.
    public var colorScale: ColorScale?
    /// Google's minimumZoomIntensity; `.some(nil)` for `auto` (0).
    public var minimumZoomIntensity: Int??
    /// Google's maximumZoomIntensity; `.some(nil)` for `auto` (22).
    public var maximumZoomIntensity: Int??
    /// The radius in metres and the mean (``KernelOverrides``).
    public var kernel = KernelOverrides()
    /// `max-percentile=P`: normalise by the P-th percentile of the zoom's non-zero pixels
    /// (0 < P ≤ 100); `.some(nil)` for `auto` (the maximum).
    public var maximumPercentile: Double??

    /// The names understood.
    public static let parameterNames =
        [
            "radius", "opacity", "gradient", "color-map-size", "color-scale", "max", "min-zoom-intensity",
            "max-zoom-intensity", "max-percentile",
        ] + KernelOverrides.parameterNames

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
                gradientText = value
            case "color-map-size":
                guard let n = Int(value), (2...Gradient.maximumColorMapSize).contains(n) else {
                    throw OverrideError(
                        "color-map-size \"\(value)\" is not a whole number in 2...\(Gradient.maximumColorMapSize)")
                }
                colorMapSize = n
            case "color-scale":
                guard let scale = ColorScale(rawValue: value) else {
                    throw OverrideError("color-scale \"\(value)\" is not linear, sqrt or log")
                }
                colorScale = scale
            case "min-zoom-intensity":
                minimumZoomIntensity = try Self.zoom(value, name)
            case "max-zoom-intensity":
                maximumZoomIntensity = try Self.zoom(value, name)
            case "max-percentile":
                if value == "auto" {
                    maximumPercentile = .some(nil)
                } else {
                    guard let p = Double(value), IntensityPercentile.isValid(p) else {
                        throw OverrideError(
                            "max-percentile \"\(value)\" is not a number above 0 and at most 100, or auto")
                    }
                    maximumPercentile = .some(Self.roundedPercentile(p))
                }
            case "max":
                if value == "auto" {
                    maximum = .some(nil)
                } else {
                    guard let m = Double(value), m.isFinite, m > 0 else {
                        throw OverrideError("max \"\(value)\" is not a number > 0 or auto")
                    }
                    maximum = .some(m)
                }
            default: try kernel.parse(name: name, value: value)
            }
        }
        if let gradientText { gradient = try GradientPresets.parse(gradientText, colorMapSize: colorMapSize) }
        if let low = minimumZoomIntensity ?? nil, let high = maximumZoomIntensity ?? nil, low > high {
            throw OverrideError("min-zoom-intensity \(low) is above max-zoom-intensity \(high)")
        }
    }

    private static func zoom(_ value: String, _ name: String) throws(OverrideError) -> Int? {
        if value == "auto" { return nil }
        guard let zoom = Int(value), (0...22).contains(zoom) else {
            throw OverrideError("\(name) \"\(value)\" is not a zoom in 0...22 or auto")
        }
        return zoom
    }

    /// Whether nothing is overridden.
    public var isEmpty: Bool {
        radius == nil && opacity == nil && gradientText == nil && maximum == nil && colorMapSize == nil
            && colorScale == nil && minimumZoomIntensity == nil && maximumZoomIntensity == nil
            && maximumPercentile == nil && kernel.isEmpty
    }

    /// The layer's settings with these applied.
    public func applied(to base: HeatmapSettings) -> HeatmapSettings {
        var settings = base
        if let radius { settings.radius = radius }
        if let opacity { settings.opacity = opacity }
        if let gradient {
            settings.gradient = gradient
        } else if let colorMapSize, colorMapSize != base.gradient.colorMapSize,
            let resized = try? Gradient(
                colors: base.gradient.colors, startPoints: base.gradient.startPoints, colorMapSize: colorMapSize)
        {
            settings.gradient = resized
        }
        if let maximum { settings.maximumIntensity = maximum }
        if let colorScale { settings.colorScale = colorScale }
        if let minimumZoomIntensity { settings.minimumZoomIntensity = minimumZoomIntensity }
        if let maximumZoomIntensity { settings.maximumZoomIntensity = maximumZoomIntensity }
        if let maximumPercentile { settings.maximumPercentile = maximumPercentile }
        return kernel.applied(to: settings)
    }

    /// The overrides as a canonical query (`radius=30&gradient=fire`), empty when none.
    public var query: String {
        var parts: [String] = []
        if let radius { parts.append("radius=\(radius)") }
        if let opacity { parts.append("opacity=\(opacity)") }
        if let gradientText { parts.append("gradient=\(QueryEncoding.encode(gradientText))") }
        if let colorMapSize { parts.append("color-map-size=\(colorMapSize)") }
        if let colorScale { parts.append("color-scale=\(colorScale.rawValue)") }
        if let maximum { parts.append("max=\(maximum.map { "\($0)" } ?? "auto")") }
        if let minimumZoomIntensity {
            parts.append("min-zoom-intensity=\(minimumZoomIntensity.map { "\($0)" } ?? "auto")")
        }
        if let maximumZoomIntensity {
            parts.append("max-zoom-intensity=\(maximumZoomIntensity.map { "\($0)" } ?? "auto")")
        }
        if let maximumPercentile { parts.append("max-percentile=\(maximumPercentile.map { "\($0)" } ?? "auto")") }
        return (parts + kernel.queryParts).joined(separator: "&")
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

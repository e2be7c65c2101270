/// A kernel radius in ground metres, converted to pixels per zoom so that the heatmap
/// scales with the map (Google's JavaScript layer with `dissipating: false`).
///
/// Web Mercator stretches the ground by 1/cos(latitude), so a metre is a different number of
/// pixels at every latitude. To keep tiles seamless and M(z) exact, the reach must be one
/// number of pixels per zoom and scale for the whole world, so the metres are measured at one
/// reference latitude φ₀ (the data's centre latitude by default):
///
///     metres per pixel  g(z, s) = cos φ₀ · 2π · 6 378 137 / (256 · s · 2^z)
///     reach             R(z, s) = ⌊metres / g(z, s) + ½⌋, clamped to 1...128·s pixels
///
/// Below one pixel the reach is 1 pixel; above 128 points (128·s pixels, half a tile) it holds
/// at 128·s, so at those zooms the heatmap stops growing rather than a tile's cost exploding.
/// Elsewhere on the map a point's reach on the ground is `metres · cos φ₀ / cos φ`.
package struct GroundRadius: Sendable, Hashable {
    /// The radius on the ground at ``latitude``, in metres: finite and above 0.
    public let meters: Double
    /// The reference latitude φ₀ in degrees, clamped to ±``WebMercator/maximumLatitude``.
    public let latitude: Double

    /// The equatorial radius of WGS 84, which Web Mercator uses for the sphere, in metres.
    public static let earthRadius = 6_378_137.0
    /// The largest reach in points: the reach in pixels is at most this times the scale.
    public static let maximumReach = 128

    /// A radius of `meters` at `latitude` (degrees).
    ///
    /// - Throws: ``HeatmapError/invalidGroundRadius(_:)`` when `meters` is not a finite number
    ///   above 0 or `latitude` not a number in -90...90.
    public init(meters: Double, latitude: Double) throws(HeatmapError) {
        guard meters.isFinite, meters > 0 else {
            throw .invalidGroundRadius("radius \(meters) metres is not a finite number above 0")
        }
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw .invalidGroundRadius("reference latitude \(latitude) is outside -90...90")
        }
        self.meters = meters
        self.latitude = min(max(latitude, -WebMercator.maximumLatitude), WebMercator.maximumLatitude)
    }

    /// Ground metres per pixel at the reference latitude, zoom `zoom` and scale `scale`.
    public func metersPerPixel(zoom: Int, scale: Int) -> Double {
        let worldPixels = Double(256 * max(1, scale)) * Double(1 << min(max(0, zoom), 62))
        return mathCos(latitude * .pi / 180) * 2 * .pi * Self.earthRadius / worldPixels
    }

    /// The radius in pixels before rounding and clamping: `meters / metersPerPixel`.
    public func exactPixels(zoom: Int, scale: Int) -> Double {
        meters / metersPerPixel(zoom: zoom, scale: scale)
    }

    /// R(z, s): the reach in pixels, ⌊metres / g + ½⌋ clamped to 1...``maximumReach``·s.
    public func pixels(zoom: Int, scale: Int) -> Int {
        let limit = Self.maximumReach * max(1, scale)
        let exact = exactPixels(zoom: zoom, scale: scale)
        guard exact.isFinite, exact < Double(limit) else { return limit }
        return min(limit, max(1, Int((exact + 0.5).rounded(.down))))
    }

    /// Whether R(z, s) is held at the limit, the metres asking for more.
    public func isClamped(zoom: Int, scale: Int) -> Bool {
        !(exactPixels(zoom: zoom, scale: scale) + 0.5 < Double(Self.maximumReach * max(1, scale) + 1))
    }
}

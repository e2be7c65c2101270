/// A position on the Earth in degrees (WGS 84), the plain counterpart of Core Location's
/// `CLLocationCoordinate2D`.
public struct Coordinate: Sendable, Hashable {
    /// Degrees north of the equator, -90...90. Web Mercator clamps it to
    /// ±`WebMercator/maximumLatitude` when drawing.
    public var latitude: Double
    /// Degrees east of Greenwich. Any finite value: the world wraps, so 190 is -170.
    public var longitude: Double

    /// Creates a coordinate from degrees of latitude and longitude.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A point with a weight, as `GMUWeightedLatLng` in Google's heatmap utility.
public struct WeightedLatLng: Sendable, Hashable {
    /// Where the point is.
    public var coordinate: Coordinate
    /// The weight of the point: finite, at least 0, at most `Float.greatestFiniteMagnitude`.
    /// Default 1. A point of weight 0 draws nothing.
    public var intensity: Double

    /// Creates a weighted point; `intensity` defaults to 1.
    public init(coordinate: Coordinate, intensity: Double = 1) {
        self.coordinate = coordinate
        self.intensity = intensity
    }
}

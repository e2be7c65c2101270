/// Web Mercator (EPSG:3857) as map tiles use it, in fixed-point world units.
///
/// The world is a square of 2^32 × 2^32 *units*; x grows east from the antimeridian,
/// y grows south from the northern limit. A point's unit coordinates are the floor of its
/// projected position times 2^32, so every point has one exact integer position that the
/// index, the renderer and the tests share. One unit is about 9.3 mm at the equator.
package enum WebMercator {
    /// The latitude limit of the square Mercator world, in degrees; latitudes beyond are clamped.
    public static let maximumLatitude = 85.05112878
    /// The number of units across the world, 2^32.
    public static let worldUnits: UInt64 = 1 << 32
    /// The highest supported zoom level.
    public static let maximumZoom = 22

    /// The unit x of a longitude in degrees; longitudes wrap, so -180 and 180 are both 0.
    /// A longitude that is not finite (which the index refuses) gives 0 rather than a trap.
    public static func unitX(longitude: Double) -> UInt32 {
        var fraction = (longitude + 180) / 360
        fraction -= fraction.rounded(.down)
        let units = (fraction * 4_294_967_296).rounded(.down)
        return units >= 4_294_967_296 ? 0 : UInt32(max(0, units))
    }

    /// The unit y of a latitude in degrees, clamped to ±``maximumLatitude``.
    ///
    /// A NaN latitude (which the index refuses) gives the equator's row rather than a trap.
    public static func unitY(latitude: Double) -> UInt32 {
        let clamped = latitude.isNaN ? 0 : min(max(latitude, -maximumLatitude), maximumLatitude)
        let sine = mathSin(clamped * .pi / 180)
        let fraction = 0.5 - mathLog((1 + sine) / (1 - sine)) / (4 * .pi)
        let units = (fraction * 4_294_967_296).rounded(.down)
        return UInt32(min(max(units, 0), 4_294_967_295))
    }

    /// The longitude in degrees at a fraction 0...1 of the world's width from the antimeridian.
    public static func longitude(worldFraction x: Double) -> Double {
        x * 360 - 180
    }

    /// The latitude in degrees at a fraction 0...1 of the world's height from its northern edge.
    public static func latitude(worldFraction y: Double) -> Double {
        mathAtan(mathSinh(.pi * (1 - 2 * y))) * 180 / .pi
    }
}

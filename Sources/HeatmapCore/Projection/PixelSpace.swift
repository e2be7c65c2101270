/// The world in pixels at one zoom level and scale: which pixel holds a unit and back.
///
/// At zoom `z` and scale `s` a tile is `256 * s` pixels wide and the world `2^z` tiles,
/// so a pixel spans `2^(24 - z) / s` units. Pixel `p` holds the units `u` with
/// `p = floor(u * s / 2^(24 - z))`.
package struct PixelSpace: Sendable, Hashable {
    /// The zoom level, 0...``WebMercator/maximumZoom``.
    public let zoom: Int
    /// The device scale: 1, 2 or 3 pixels per point.
    public let scale: Int
    @usableFromInline let shift: UInt64

    /// Creates the pixel space of a zoom level and scale.
    ///
    /// - Throws: ``HeatmapError/unsupportedZoom(_:)`` or ``HeatmapError/unsupportedScale(_:)``.
    public init(zoom: Int, scale: Int) throws(HeatmapError) {
        guard (0...WebMercator.maximumZoom).contains(zoom) else { throw .unsupportedZoom(zoom) }
        guard (1...3).contains(scale) else { throw .unsupportedScale(scale) }
        self.zoom = zoom
        self.scale = scale
        self.shift = UInt64(24 - zoom)
    }

    /// k when a pixel is exactly 2^k × 2^k units, an aligned quadtree cell (scales 1 and 2);
    /// `nil` at scale 3, where pixels straddle cells.
    public var pixelLevel: Int? {
        switch scale {
        case 1: return 24 - zoom
        case 2: return 23 - zoom
        default: return nil
        }
    }

    /// The side of a tile in pixels: 256 times the scale.
    public var tileSize: Int { 256 * scale }
    /// The side of the world in pixels: the tile size times 2^zoom.
    public var worldSize: Int { tileSize << zoom }
    /// The number of tiles across the world, 2^zoom.
    public var tilesAcross: Int { 1 << zoom }

    /// The pixel column (or row) that holds a unit coordinate.
    @inlinable @inline(__always)
    public func pixel(ofUnit unit: UInt64) -> Int {
        Int(truncatingIfNeeded: (unit &* UInt64(truncatingIfNeeded: scale)) >> shift)
    }

    /// The pixel that holds a coordinate: column and row in world pixels.
    public func pixel(of coordinate: Coordinate) -> (x: Int, y: Int) {
        (
            pixel(ofUnit: UInt64(WebMercator.unitX(longitude: coordinate.longitude))),
            pixel(ofUnit: UInt64(WebMercator.unitY(latitude: coordinate.latitude)))
        )
    }

    /// The first unit coordinate that falls in a pixel column (or row); `worldSize` gives 2^32.
    @inlinable
    public func firstUnit(ofPixel pixel: Int) -> UInt64 {
        let s = UInt64(truncatingIfNeeded: scale)
        return ((UInt64(truncatingIfNeeded: pixel) << shift) + s - 1) / s
    }
}

import HeatmapCore

/// A rectangle of the map to draw as one image: its centre, zoom, size in points and scale.
///
/// The image is `width × scale` by `height × scale` pixels of the world at `zoom` and `scale`
/// (tiles of `256 × scale` pixels), aligned with the tiles' pixels: the pixel holding `center`
/// is column `pixelWidth / 2` and row `pixelHeight / 2` (rounded down). Longitudes wrap, so a
/// viewport may cross the antimeridian; rows north or south of the square Mercator world are
/// transparent.
public struct Viewport: Sendable, Hashable {
    /// The centre of the image.
    public var center: Coordinate
    /// The zoom level, 0...22.
    public var zoom: Int
    /// The width in points.
    public var width: Int
    /// The height in points.
    public var height: Int
    /// The pixels per point, 1, 2 or 3.
    public var scale: Int

    /// The largest width or height of an image, in pixels.
    package static let maximumPixels = 4096

    /// A viewport of `width × height` points around `center` at `zoom` and `scale` (default 1).
    public init(center: Coordinate, zoom: Int, width: Int, height: Int, scale: Int = 1) {
        self.center = center
        self.zoom = zoom
        self.width = width
        self.height = height
        self.scale = scale
    }

    /// The width of the image in pixels.
    package var pixelWidth: Int { width.multipliedReportingOverflow(by: scale).partialValue }
    /// The height of the image in pixels.
    package var pixelHeight: Int { height.multipliedReportingOverflow(by: scale).partialValue }
    /// The side of a tile in pixels, `256 × scale`.
    package var tileSize: Int { 256 * scale }

    /// Checks every value.
    ///
    /// - Throws: ``TileLayerError/invalidViewport(_:)`` saying which value is wrong and what is allowed.
    package func validate() throws(TileLayerError) {
        guard center.latitude.isFinite, (-90...90).contains(center.latitude) else {
            throw .invalidViewport("latitude \(center.latitude) is outside -90...90")
        }
        guard center.longitude.isFinite else { throw .invalidViewport("longitude \(center.longitude) is not finite") }
        guard (0...22).contains(zoom) else { throw .invalidViewport("zoom \(zoom) is outside 0...22") }
        guard (1...3).contains(scale) else { throw .invalidViewport("scale \(scale) is not 1, 2 or 3") }
        let limit = Self.maximumPixels / scale
        guard (1...limit).contains(width), (1...limit).contains(height) else {
            throw .invalidViewport(
                "size \(width)×\(height) is outside 1...\(limit) points a side at scale \(scale) "
                    + "(\(Self.maximumPixels) pixels)")
        }
    }

    /// The world pixel (column, row) of the image's top-left pixel at its zoom and scale; the
    /// column may lie west of 0 or east of the world's width (it wraps), the row above or below.
    ///
    /// - Precondition: the viewport is valid (see ``validate()``).
    package var origin: (x: Int, y: Int) {
        guard let space = try? PixelSpace(zoom: zoom, scale: scale) else { return (0, 0) }
        let centre = space.pixel(of: center)
        return (centre.x - pixelWidth / 2, centre.y - pixelHeight / 2)
    }
}

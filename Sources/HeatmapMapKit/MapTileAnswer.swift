import HeatmapKit

/// What a map framework's tile callback answers for a layer's tile, the same for MapKit's
/// `MKTileOverlay`, Google's `GMSSyncTileLayer` and the like; platform-neutral, so it is built
/// and tested on Linux too.
public enum MapTileAnswer {
    /// The layer answered ``TileResult/notAvailableYet``: the map should ask again later
    /// (MapKit retries a tile whose load failed; Google's layers take `nil` for this).
    public struct NotAvailableYet: Error, Sendable, Hashable, CustomStringConvertible {
        /// The tile, `zoom/x/y`.
        public var tile: String
        /// `tile 6/57/39 is not available yet (its data are still being indexed); ask again`.
        public var description: String {
            "tile \(tile) is not available yet (its data are still being indexed); ask again"
        }
    }

    /// The request for tile `zoom`/`x`/`y` shown at `contentScaleFactor` pixels per point,
    /// the scale rounded to 1, 2 or 3 (MapKit's `MKTileOverlayPath.contentScaleFactor`,
    /// UIKit's `UIScreen.scale`).
    public static func request(x: Int, y: Int, zoom: Int, contentScaleFactor: Double) -> TileRequest {
        let scale = contentScaleFactor.isFinite ? Int(contentScaleFactor.rounded()) : 1
        return TileRequest(x: x, y: y, zoom: zoom, scale: min(3, max(1, scale)))
    }

    /// The bytes to hand the map: the PNG of an image, no bytes for "no tile" (an empty tile:
    /// nothing drawn, nothing retried).
    ///
    /// - Throws: ``NotAvailableYet`` for ``TileResult/notAvailableYet``.
    public static func bytes(_ result: TileResult, for request: TileRequest) throws(NotAvailableYet) -> [UInt8] {
        switch result {
        case .image(let png): return png
        case .noTile: return []
        case .notAvailableYet: throw NotAvailableYet(tile: "\(request.zoom)/\(request.x)/\(request.y)")
        }
    }

    /// The tile of `layer` for a map's request, answered later (the layer's own threads).
    ///
    /// - Throws: the layer's error (an upstream's, a stack's), or ``NotAvailableYet``.
    public static func bytes(
        of layer: any TileLayer, x: Int, y: Int, zoom: Int, contentScaleFactor: Double
    ) async throws -> [UInt8] {
        let request = request(x: x, y: y, zoom: zoom, contentScaleFactor: contentScaleFactor)
        return try bytes(try await layer.tile(request), for: request)
    }
}

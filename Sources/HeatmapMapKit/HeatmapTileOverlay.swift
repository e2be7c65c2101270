#if canImport(MapKit)
    import Foundation
    import HeatmapKit
    import MapKit

    /// An `MKTileOverlay` that draws a ``HeatmapKit/TileLayer`` (a `HeatmapTileLayer`, a
    /// `TileStack`, a `URLTileLayer`…) in an `MKMapView`: each tile is asked of the layer at the
    /// map's `contentScaleFactor` (1, 2 or 3 pixels per point), "no tile" is an empty tile,
    /// "not available yet" and the layer's errors fail the load, so MapKit asks again later.
    ///
    /// ```swift
    /// let heatmap = HeatmapTileLayer(weightedData: points)
    /// mapView.addOverlay(HeatmapTileOverlay(layer: heatmap), level: .aboveLabels)
    /// // in the MKMapViewDelegate:
    /// func mapView(_ mapView: MKMapView, rendererFor overlay: any MKOverlay) -> MKOverlayRenderer {
    ///     if let tiles = overlay as? MKTileOverlay { return MKTileOverlayRenderer(tileOverlay: tiles) }
    ///     return MKOverlayRenderer(overlay: overlay)
    /// }
    /// ```
    ///
    /// Compiled only where MapKit exists (macOS, iOS, visionOS); checked by construction, not
    /// built in CI (Linux). ``MapTileAnswer``, which does the work, is built and tested everywhere.
    public final class HeatmapTileOverlay: MKTileOverlay {
        /// The layer drawn.
        public let layer: any TileLayer

        /// An overlay drawing `layer`, its tiles `layer.tileSize` points square, over the map
        /// (not replacing it).
        public init(layer: any TileLayer) {
            self.layer = layer
            super.init(urlTemplate: nil)
            tileSize = CGSize(width: layer.tileSize, height: layer.tileSize)
            canReplaceMapContent = false
        }

        /// The tile's PNG, asked of the layer off the main thread.
        override public func loadTile(at path: MKTileOverlayPath) async throws -> Data {
            Data(
                try await MapTileAnswer.bytes(
                    of: layer, x: path.x, y: path.y, zoom: path.z, contentScaleFactor: Double(path.contentScaleFactor)))
        }
    }
#endif

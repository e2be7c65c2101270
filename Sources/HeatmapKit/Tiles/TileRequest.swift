/// Which tile a layer is asked for: x, y and zoom in the XYZ scheme, and the scale it is shown at.
public struct TileRequest: Sendable, Hashable {
    /// The column, 0...2^zoom − 1, from the antimeridian eastwards.
    public var x: Int
    /// The row, 0...2^zoom − 1, from the north.
    public var y: Int
    /// The zoom level, 0...22.
    public var zoom: Int
    /// The pixels per point the caller shows the tile at: 1, 2 or 3. Layers of fixed images
    /// (Google's model: a URL layer, your own layer) answer their ``TileLayer/tileSize`` whatever
    /// the scale; a layer that draws at any scale (the heatmap) answers `256 × scale` pixels.
    public var scale: Int

    /// A request for tile `zoom`/`x`/`y` at `scale` (default 1).
    public init(x: Int, y: Int, zoom: Int, scale: Int = 1) {
        self.x = x
        self.y = y
        self.zoom = zoom
        self.scale = scale
    }

    /// The number of tiles across the world at this zoom, 2^zoom (0 for an invalid zoom).
    package var tilesAcross: Int { (0...22).contains(zoom) ? 1 << zoom : 0 }

    /// Checks that the tile is on the grid and the scale is 1, 2 or 3.
    ///
    /// - Throws: ``TileLayerError/invalidRequest(_:)`` saying which value is wrong.
    package func validate() throws(TileLayerError) {
        guard (0...22).contains(zoom) else { throw .invalidRequest("zoom \(zoom) is outside 0...22") }
        guard (1...3).contains(scale) else { throw .invalidRequest("scale \(scale) is not 1, 2 or 3") }
        guard (0..<tilesAcross).contains(x), (0..<tilesAcross).contains(y) else {
            throw .invalidRequest(
                "tile \(zoom)/\(x)/\(y) is outside the grid of zoom \(zoom) (x and y in 0...\(tilesAcross - 1))")
        }
    }
}

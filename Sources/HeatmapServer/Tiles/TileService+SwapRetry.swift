import HeatmapKit

extension TileService {
    /// Draws a tile; when the draw fails because its source gave up (``HeatmapError/sourceFailed(_:)``)
    /// while the layer's data were swapped under it, draws it again on the new data, twice at
    /// most. A database table that changed does this: the version pinned to the old state
    /// fails its tile and swaps in the new one before it returns, so the tile comes from the
    /// new state instead of a 503.
    ///
    /// - Returns: the tile and the generation its data were read at (read before the draw).
    func drawFollowingSwaps(layer: ServedLayer, key: TileKey, generation: Int) throws(HeatmapError) -> (
        DrawnTile, Int
    ) {
        var generation = generation
        var retries = 0
        while true {
            do {
                let drawn = try layer.layer.drawTile(
                    x: key.x, y: key.y, zoom: key.zoom, scale: key.scale, settings: key.settings)
                return (drawn, generation)
            } catch {
                let now = layer.cacheStamp.generation
                guard case .sourceFailed = error, now != generation, retries < 2 else { throw error }
                generation = now
                retries += 1
            }
        }
    }
}

import HeatmapCore

extension HeatmapTileLayer {
    /// The PNG of a tile of the sum, drawn a band of rows at a time: the weights gathered into a
    /// grid reused from the tile before, then for each band its intensities and their colour
    /// codes (an entry number a pixel); then a palette PNG of the colours used when they number
    /// at most 256, else RGBA. The pixels are those of `colorMap.colorize(intensity, maximum:)`.
    /// With M(z) (`nil` for no tile: nothing within reach).
    func renderSum(
        source: LayerSource, rect: PixelRect, space: PixelSpace, kernel: GaussianKernel, snapshot: Snapshot
    ) throws(HeatmapError) -> (TileResult, Double?) {
        guard case .index(let index) = source else {
            // Another source may read one tile's queries its own way: its whole grid, in bands.
            let grid = try source.intensity(in: rect, space: space, kernel: kernel)
            if grid.isEmpty { return (.noTile, nil) }
            let maximum = try normalization(snapshot, space)
            let colors = BandColorizer(snapshot.colorMap, maximum: maximum)
            let width = grid.width
            let png = try Self.encode(width: width, height: grid.height, colors: colors) { band in
                grid.values.withUnsafeBufferPointer { values in
                    guard let base = values.baseAddress else { return }
                    var first = 0
                    while first < grid.height {
                        let rows = min(band.rows, grid.height - first)
                        band.draw(base + first * width, rows)
                        first += rows
                    }
                }
            }
            return (.image(png), maximum)
        }
        var tile = index.gathered(in: rect, space: space, kernel: kernel)
        if tile.isEmpty {
            tile.recycle()
            return (.noTile, nil)
        }
        let maximum: Double
        do {
            maximum = try normalization(snapshot, space)
        } catch {
            tile.recycle()
            throw error
        }
        let colors = BandColorizer(snapshot.colorMap, maximum: maximum)
        let png = try Self.encode(width: tile.width, height: tile.height, colors: colors) { band in
            _ = tile.convolveInBands(bandRows: band.rows) { values, _, rows in band.draw(values, rows) }
        }
        return (.image(png), maximum)
    }

    /// ``PNGEncoder/encodeColored(width:height:colors:body:)``, its error as the layer's.
    private static func encode(
        width: Int, height: Int, colors: BandColorizer, body: (PNGEncoder.BandDrawer) -> Void
    ) throws(HeatmapError) -> [UInt8] {
        do {
            return try PNGEncoder.encodeColored(width: width, height: height, colors: colors, body: body)
        } catch {
            throw .encodingFailed(error.description)
        }
    }
}

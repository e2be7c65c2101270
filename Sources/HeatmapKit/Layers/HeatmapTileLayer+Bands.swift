import HeatmapCore

extension HeatmapTileLayer {
    /// The PNG of a tile of the sum, drawn a band of rows at a time: the weights gathered into a
    /// grid reused from the tile before, then for each band its intensities, colours and
    /// filtered rows in small buffers, parsed for the deflate; the bytes are those of
    /// `PNGEncoder().encode(colorMap.colorize(intensity, maximum:))`. With M(z) (`nil` for no
    /// tile: nothing within reach).
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
            let png = try Self.encode(width: width, height: grid.height) { stream in
                grid.values.withUnsafeBufferPointer { values in
                    guard let base = values.baseAddress else { return }
                    var first = 0
                    while first < grid.height {
                        let rows = min(stream.bandRows, grid.height - first)
                        colors.colorize(base + first * width, count: rows * width, into: stream.pixels)
                        stream.appendPixels(count: rows)
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
        let width = tile.width
        let png = try Self.encode(width: width, height: tile.height) { stream in
            _ = tile.convolveInBands(bandRows: stream.bandRows) { values, _, rows in
                colors.colorize(values, count: rows * width, into: stream.pixels)
                stream.appendPixels(count: rows)
            }
        }
        return (.image(png), maximum)
    }

    /// ``PNGEncoder/encodeInBands(width:height:draw:)``, its error as the layer's.
    private static func encode(width: Int, height: Int, draw: (inout PNGBandStream) -> Void) throws(HeatmapError)
        -> [UInt8]
    {
        do {
            return try PNGEncoder.encodeInBands(width: width, height: height, draw: draw)
        } catch {
            throw .encodingFailed(error.description)
        }
    }
}

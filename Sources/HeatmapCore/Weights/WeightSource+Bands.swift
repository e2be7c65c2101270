/// The weights gathered around a tile, ready to convolve a band of rows at a time
/// (``WeightSource/gathered(in:space:kernel:)``): how a layer draws a tile without the whole
/// intensity image.
package struct GatheredTile {
    var cells: GatheredCells
    let taps: [Float]
    let reach: Int
    /// The tile's columns and rows.
    package let width: Int
    package let height: Int
    /// Whether no point of positive weight lies within reach of any pixel: nothing to draw.
    package let isEmpty: Bool

    /// Hands `body` the intensities a band of `bandRows` rows at a time, top to bottom (the
    /// values of ``IntensityGrid/values`` for those rows, bit for bit; see
    /// ``GatheredCells/convolveInBands(taps:radius:width:height:bandRows:_:)``), then keeps the
    /// grid's storage for the next tile. Returns the largest intensity.
    package mutating func convolveInBands(
        bandRows: Int, _ body: (_ values: UnsafePointer<Float>, _ firstRow: Int, _ rows: Int) -> Void
    ) -> Float {
        let maximum = taps.withUnsafeBufferPointer { taps in
            cells.convolveInBands(
                taps: taps, radius: reach, width: width, height: height, bandRows: bandRows, body)
        }
        cells.recycle()
        return maximum
    }

    /// Keeps the grid's storage for the next tile, without convolving (a tile with no data).
    package mutating func recycle() { cells.recycle() }
}

extension WeightSource {
    /// The weights around `rect` (padded by the kernel's reach), gathered as
    /// ``intensity(in:space:kernel:)`` gathers them, into a grid reused from an earlier tile.
    package func gathered(in rect: PixelRect, space: PixelSpace, kernel: GaussianKernel) throws(Failure)
        -> GatheredTile
    {
        let padded = rect.expanded(by: kernel.radius)
        var cells = GatheredCells.reused(width: padded.width, height: padded.height)
        do throws(Failure) {
            try gatherWeights(padded, space: space, into: &cells)
        } catch {
            cells.recycle()
            throw error
        }
        return GatheredTile(
            cells: cells, taps: kernel.taps, reach: kernel.radius, width: max(0, rect.width),
            height: max(0, rect.height), isEmpty: cells.isEmpty)
    }
}

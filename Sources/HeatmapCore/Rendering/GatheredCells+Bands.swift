extension GatheredCells {
    /// The convolution of ``convolve(taps:radius:into:width:height:)``, handed to `body` a band
    /// of `bandRows` output rows at a time (the last may have fewer), top to bottom: `body`
    /// gets the band's `rows × width` values, its first row and its number of rows. The band
    /// is one small buffer used again for each, so the output never exists whole (unless the
    /// width needs more than one strip of columns). Returns the largest value.
    ///
    /// - Complexity: that of ``convolve(taps:radius:into:width:height:)``.
    func convolveInBands(
        taps: UnsafeBufferPointer<Float>, radius r: Int, width outWidth: Int, height outHeight: Int, bandRows: Int,
        _ body: (_ values: UnsafePointer<Float>, _ firstRow: Int, _ rows: Int) -> Void
    ) -> Float {
        guard outWidth > 0, outHeight > 0, bandRows > 0 else { return 0 }
        let blocks = (outWidth + Self.blockWidth - 1) / Self.blockWidth
        guard blocks <= 64, bandRows < outHeight, width == outWidth + 2 * r, height == outHeight + 2 * r,
            taps.count == 2 * r + 1, let tap = taps.baseAddress
        else {
            // One strip cannot do it, or one band is the whole: the output whole, then its bands.
            var values = [Float](repeating: 0, count: outWidth * outHeight)
            let maximum = values.withUnsafeMutableBufferPointer { out in
                convolve(taps: taps, radius: r, into: out, width: outWidth, height: outHeight)
            }
            values.withUnsafeBufferPointer { values in
                guard let base = values.baseAddress else { return }
                var first = 0
                while first < outHeight {
                    let rows = min(bandRows, outHeight - first)
                    body(base + first * outWidth, first, rows)
                    first += rows
                }
            }
            return maximum
        }
        let band = UnsafeMutablePointer<Float>.allocate(capacity: bandRows * outWidth)
        defer { band.deallocate() }
        band.initialize(repeating: 0, count: bandRows * outWidth)
        var maximum: Float = 0
        withCellPointers { cells, chunks, counts in
            var strip = ConvolutionStrip(
                cells: cells, stride: stride, rowChunks: chunks, rowCounts: counts, chunkShift: chunkShift,
                width: width, height: height, taps: tap, radius: r, output: band, outputWidth: outWidth,
                firstBlock: 0, blockCount: blocks)
            strip.bandRows = bandRows
            maximum = strip.run { first, rows in
                body(band, first, rows)
                band.update(repeating: 0, count: rows * outWidth)
            }
        }
        return maximum
    }
}

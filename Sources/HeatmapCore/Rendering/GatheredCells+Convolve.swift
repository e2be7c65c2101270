extension GatheredCells {
    /// Convolves the weights with a separable, symmetric kernel of `2 * radius + 1` taps and
    /// writes the result to `out`, the `width × height` pixels inside the padding of `radius`
    /// on every side (zero on entry); returns the largest value written (0 if none).
    ///
    /// The order of every sum is canonical, whatever the occupancy around a pixel: along x,
    /// a row's value at a column is the sum over source columns in ascending order of
    /// weight × tap; along y, the output is the sum over source rows in ascending order of
    /// tap × row value. Terms that are exactly zero may be left out, as adding them changes
    /// nothing. Output columns are done in strips of up to 64 blocks of ``blockWidth``; see
    /// ``ConvolutionStrip``.
    ///
    /// - Complexity: O((occupied rows × width + occupied output blocks × height) × (2R + 1)),
    ///   at most O((w + 2R + h) · w · (2R + 1)).
    func convolve(
        taps: UnsafeBufferPointer<Float>, radius r: Int, into out: UnsafeMutableBufferPointer<Float>,
        width outWidth: Int, height outHeight: Int
    ) -> Float {
        guard outWidth > 0, outHeight > 0, width == outWidth + 2 * r, height == outHeight + 2 * r,
            taps.count == 2 * r + 1, let tap = taps.baseAddress, let output = out.baseAddress
        else { return 0 }
        let blocks = (outWidth + Self.blockWidth - 1) / Self.blockWidth
        var maximum: Float = 0
        withCellPointers { cells, chunks, counts in
            var first = 0
            while first < blocks {
                let count = min(64, blocks - first)
                let strip = ConvolutionStrip(
                    cells: cells, stride: stride, rowChunks: chunks, rowCounts: counts,
                    chunkShift: chunkShift, width: width, height: height, taps: tap, radius: r,
                    output: output, outputWidth: outWidth, firstBlock: first, blockCount: count)
                maximum = max(maximum, strip.run())
                first += count
            }
        }
        return maximum
    }

    /// Calls `body` with the base addresses of the weights, the row chunks and the row counts
    /// (the three arrays the convolution strips read); not at all if one has no storage.
    func withCellPointers(
        _ body: (UnsafePointer<Float>, UnsafePointer<UInt64>, UnsafePointer<Int32>) -> Void
    ) {
        storage.withUnsafeBufferPointer { cellBuffer in
            rowChunks.withUnsafeBufferPointer { chunkBuffer in
                rowCounts.withUnsafeBufferPointer { countBuffer in
                    guard let cells = cellBuffer.baseAddress, let chunks = chunkBuffer.baseAddress,
                        let counts = countBuffer.baseAddress
                    else { return }
                    body(cells, chunks, counts)
                }
            }
        }
    }
}

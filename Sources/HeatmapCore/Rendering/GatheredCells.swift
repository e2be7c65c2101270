/// Pixel weights over a padded rectangle, with the occupied span of each row.
struct GatheredCells {
    let width: Int
    let height: Int
    /// `width * height` weights, row-major.
    var storage: [Float]
    /// The first occupied column of each row, `Int32.max` for an empty row.
    var rowLow: [Int32]
    /// The last occupied column of each row, -1 for an empty row.
    var rowHigh: [Int32]

    init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        storage = [Float](repeating: 0, count: self.width * self.height)
        rowLow = [Int32](repeating: .max, count: self.height)
        rowHigh = [Int32](repeating: -1, count: self.height)
    }

    /// Whether no pixel holds weight.
    var isEmpty: Bool { !rowHigh.contains { $0 >= 0 } }

    /// Convolves the weights with the separable kernel and adds the result to `out`, the
    /// `width × height` pixels inside the padding of `radius` on every side.
    ///
    /// Row by row, north to south: the row is spread along x into a scratch row (only over
    /// its occupied span), then added into the output rows within reach, each scaled by the
    /// kernel tap for its distance. Both inner loops run over contiguous floats and vectorise.
    func convolve(
        taps: UnsafeBufferPointer<Float>, radius r: Int, into out: UnsafeMutableBufferPointer<Float>,
        width outWidth: Int, height outHeight: Int
    ) {
        guard let tap = taps.baseAddress, let output = out.baseAddress else { return }
        let span = 2 * r + 1
        var scratchRow = [Float](repeating: 0, count: width + 2 * r)
        storage.withUnsafeBufferPointer { cellBuffer in
            scratchRow.withUnsafeMutableBufferPointer { scratchBuffer in
                guard let cells = cellBuffer.baseAddress, let scratch = scratchBuffer.baseAddress else { return }
                for gy in 0..<height where rowHigh[gy] >= 0 {
                    let low = Int(rowLow[gy])
                    let high = Int(rowHigh[gy])
                    let row = cells + gy * width
                    // Along x: scratch[j] collects output column j - 2R.
                    for gx in low...high {
                        let w = row[gx]
                        if w == 0 { continue }
                        let target = scratch + gx
                        for t in 0..<span { target[t] += w * tap[t] }
                    }
                    // Along y: output row gy - 2R + t gets tap[t] times the spread row.
                    let columnLow = max(0, low - 2 * r)
                    let columnHigh = min(outWidth, high + 1)
                    if columnLow < columnHigh {
                        let count = columnHigh - columnLow
                        let source = scratch + columnLow + 2 * r
                        let firstTap = max(0, 2 * r - gy)
                        let lastTap = min(2 * r, outHeight - 1 + 2 * r - gy)
                        if firstTap <= lastTap {
                            for t in firstTap...lastTap {
                                let k = tap[t]
                                let target = output + (gy - 2 * r + t) * outWidth + columnLow
                                for c in 0..<count { target[c] += k * source[c] }
                            }
                        }
                    }
                    (scratch + low).update(repeating: 0, count: high - low + span)
                }
            }
        }
    }
}

@testable import HeatmapCore

/// The convolution as the engine did it before blocks and rings, kept as the reference for
/// ``GatheredCells/convolve(taps:radius:into:width:height:)``: each occupied row is spread
/// along x into a scratch row, weight by weight in ascending column order, and the scratch
/// row, times each tap, is added into the output rows within reach, row by row in ascending
/// order.
enum ScatterConvolution {
    /// The `(width − 2R) × (height − 2R)` output of a `width × height` grid of weights
    /// (row-major), and its largest value.
    static func convolve(
        weights: [Float], width: Int, height: Int, taps: [Float], radius r: Int
    ) -> (values: [Float], maximum: Float) {
        let outWidth = width - 2 * r
        let outHeight = height - 2 * r
        let span = 2 * r + 1
        var out = [Float](repeating: 0, count: outWidth * outHeight)
        var scratch = [Float](repeating: 0, count: width + 2 * r)
        for gy in 0..<height {
            let row = Array(weights[(gy * width)..<((gy + 1) * width)])
            guard let low = row.firstIndex(where: { $0 != 0 }), let high = row.lastIndex(where: { $0 != 0 }) else {
                continue
            }
            for gx in low...high where row[gx] != 0 {
                for t in 0..<span { scratch[gx + t] += row[gx] * taps[t] }
            }
            let columnLow = max(0, low - 2 * r)
            let columnHigh = min(outWidth, high + 1)
            for t in 0..<span {
                let y = gy - 2 * r + t
                guard y >= 0, y < outHeight, columnLow < columnHigh else { continue }
                for c in columnLow..<columnHigh { out[y * outWidth + c] += taps[t] * scratch[c + 2 * r] }
            }
            for i in scratch.indices { scratch[i] = 0 }
        }
        var maximum: Float = 0
        for v in out where v > maximum { maximum = v }
        return (out, maximum)
    }
}

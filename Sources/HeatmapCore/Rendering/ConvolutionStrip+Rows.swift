extension ConvolutionStrip {
    /// Writes output row `y` of the strip: for each block, the sum over the source rows
    /// `y ... y + 2R` that are occupied in that block, in ascending order, of tap × the row's
    /// x-convolution (in `rows`). Blocks no source row reaches are left at zero.
    ///
    /// - Parameters:
    ///   - rowsOfBlock: for each block, `wordsPerBlock` words of bits, one per grid row, set
    ///     where the row's x-convolution may be nonzero in that block.
    /// - Returns: the largest value written, 0 if none.
    /// - Complexity: O(blocks + occupied (row, block) pairs in reach × 32).
    func outputRow(_ y: Int, rows: RingRows, rowsOfBlock: UnsafePointer<UInt64>, wordsPerBlock: Int) -> Float {
        let b = GatheredCells.blockWidth
        let last = y + 2 * radius
        let firstWord = y >> 6
        let lastWord = last >> 6
        let lowMask: UInt64 = ~0 << UInt64(y & 63)
        let highMask: UInt64 = last & 63 == 63 ? ~0 : (1 << UInt64((last & 63) + 1)) - 1
        let target = output + y * outputWidth
        var top = SIMD8<Float>()
        var partialTop: Float = 0
        for block in 0..<blockCount {
            let words = rowsOfBlock + block * wordsPerBlock
            var a0 = SIMD8<Float>()
            var a1 = SIMD8<Float>()
            var a2 = SIMD8<Float>()
            var a3 = SIMD8<Float>()
            var occupied = false
            for word in firstWord...lastWord {
                var bits = words[word]
                if word == firstWord { bits &= lowMask }
                if word == lastWord { bits &= highMask }
                occupied = occupied || bits != 0
                while bits != 0 {
                    let gy = word << 6 | bits.trailingZeroBitCount
                    bits &= bits - 1
                    let k = SIMD8<Float>(repeating: taps[last - gy])
                    let source = UnsafeRawPointer(rows.row(gy) + block * b)
                    a0 += k * source.loadUnaligned(as: SIMD8<Float>.self)
                    a1 += k * source.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self)
                    a2 += k * source.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self)
                    a3 += k * source.loadUnaligned(fromByteOffset: 96, as: SIMD8<Float>.self)
                }
            }
            if !occupied { continue }
            let column = (firstBlock + block) * b
            if column + b <= outputWidth {
                let destination = UnsafeMutableRawPointer(target + column)
                destination.storeBytes(of: a0, as: SIMD8<Float>.self)
                destination.storeBytes(of: a1, toByteOffset: 32, as: SIMD8<Float>.self)
                destination.storeBytes(of: a2, toByteOffset: 64, as: SIMD8<Float>.self)
                destination.storeBytes(of: a3, toByteOffset: 96, as: SIMD8<Float>.self)
                top = pointwiseMax(top, pointwiseMax(pointwiseMax(a0, a1), pointwiseMax(a2, a3)))
            } else {
                // The last, partial block: only the columns inside the output.
                let lanes = [a0, a1, a2, a3]
                for i in 0..<(outputWidth - column) {
                    let value = lanes[i >> 3][i & 7]
                    target[column + i] = value
                    if value > partialTop { partialTop = value }
                }
            }
        }
        return max(top.max(), partialTop)
    }
}

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
        let target = output + (bandRows > 0 ? y % bandRows : y) * outputWidth
        var top: Float = 0
        for block in 0..<blockCount {
            let column = (firstBlock + block) * b
            let columns = min(b, outputWidth - column)
            let words = rowsOfBlock + block * wordsPerBlock
            if !occupied(y, words: words) { continue }
            // A last block of at most 16 columns computes only those.
            var sums =
                columns > b / 2
                ? sumRows(y, rows: rows, words: words, block: block, wide: true)
                : sumRows(y, rows: rows, words: words, block: block, wide: false)
            if columns == b {
                let destination = UnsafeMutableRawPointer(target + column)
                destination.storeBytes(of: sums.0, as: SIMD8<Float>.self)
                destination.storeBytes(of: sums.1, toByteOffset: 32, as: SIMD8<Float>.self)
                destination.storeBytes(of: sums.2, toByteOffset: 64, as: SIMD8<Float>.self)
                destination.storeBytes(of: sums.3, toByteOffset: 96, as: SIMD8<Float>.self)
                let m = larger(larger(sums.0, sums.1), larger(sums.2, sums.3))
                let m4 = larger4(m.lowHalf, m.highHalf)
                top = max(top, max(max(m4[0], m4[1]), max(m4[2], m4[3])))
            } else {
                // A partial block: only the columns inside the output.
                withUnsafeBytes(of: &sums) { raw in
                    let values = raw.bindMemory(to: Float.self)
                    for i in 0..<columns {
                        target[column + i] = values[i]
                        if values[i] > top { top = values[i] }
                    }
                }
            }
        }
        return top
    }

    /// Whether any source row in reach of output row `y` is occupied in the block whose row
    /// bits are `words`.
    @inline(__always)
    func occupied(_ y: Int, words: UnsafePointer<UInt64>) -> Bool {
        let last = y + 2 * radius
        let firstWord = y >> 6
        let lastWord = last >> 6
        for word in firstWord...lastWord {
            var bits = words[word]
            if word == firstWord { bits &= ~0 << UInt64(y & 63) }
            if word == lastWord && last & 63 != 63 { bits &= (1 << UInt64((last & 63) + 1)) - 1 }
            if bits != 0 { return true }
        }
        return false
    }

    /// The sums of one block of output row `y` over the occupied source rows in reach, in
    /// ascending order, 32 columns (or the first 16 when not `wide`).
    @inline(__always)
    func sumRows(
        _ y: Int, rows: RingRows, words: UnsafePointer<UInt64>, block: Int, wide: Bool
    ) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
        let last = y + 2 * radius
        let firstWord = y >> 6
        let lastWord = last >> 6
        var a0 = SIMD8<Float>()
        var a1 = SIMD8<Float>()
        var a2 = SIMD8<Float>()
        var a3 = SIMD8<Float>()
        for word in firstWord...lastWord {
            var bits = words[word]
            if word == firstWord { bits &= ~0 << UInt64(y & 63) }
            if word == lastWord && last & 63 != 63 { bits &= (1 << UInt64((last & 63) + 1)) - 1 }
            while bits != 0 {
                let gy = word << 6 | bits.trailingZeroBitCount
                bits &= bits - 1
                let k = SIMD8<Float>(repeating: taps[last - gy])
                let source = UnsafeRawPointer(rows.row(gy) + block * GatheredCells.blockWidth)
                a0 += k * source.loadUnaligned(as: SIMD8<Float>.self)
                a1 += k * source.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self)
                if wide {
                    a2 += k * source.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self)
                    a3 += k * source.loadUnaligned(fromByteOffset: 96, as: SIMD8<Float>.self)
                }
            }
        }
        return (a0, a1, a2, a3)
    }
}

/// The lane-wise larger of two vectors of non-NaN floats.
@inline(__always)
func larger(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
    a.replacing(with: b, where: b .> a)
}

/// The lane-wise larger of two vectors of non-NaN floats.
@inline(__always)
func larger4(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
    a.replacing(with: b, where: b .> a)
}

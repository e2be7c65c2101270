/// The convolution of a strip of up to 64 blocks of output columns, streaming row by row.
///
/// Along x, each occupied source row is convolved into a ring of rows (only the blocks of
/// output columns its weights reach): a row with many weights per block *gathers* — for
/// each block, 32 columns held in registers, it adds weight × tap over the source columns
/// in ascending order — and a row with few *scatters* each nonzero weight, in ascending
/// order of column, over the columns it reaches. Both give every value the same sum.
/// Along y, once the 2R + 1 rows an output row needs are in the ring, each block of the
/// output row gathers tap × row value over the source rows that are occupied in that block
/// (a bit set per block and row), in ascending order, in registers.
struct ConvolutionStrip {
    let cells: UnsafePointer<Float>
    let stride: Int
    let rowChunks: UnsafePointer<UInt64>
    let rowCounts: UnsafePointer<Int32>
    let chunkShift: Int
    /// The grid's columns and rows (output plus 2R each).
    let width: Int
    let height: Int
    /// `2R + 1` taps, `taps[R]` at distance 0.
    let taps: UnsafePointer<Float>
    let radius: Int
    /// The output, `outputWidth` columns a row.
    let output: UnsafeMutablePointer<Float>
    let outputWidth: Int
    /// The strip's first block (of ``GatheredCells/blockWidth`` output columns) and count.
    let firstBlock: Int
    let blockCount: Int
    /// 0 when `output` holds every output row; else it holds this many, a band: output row `y`
    /// is its row `y % bandRows` (see ``run(bandDone:)``).
    var bandRows = 0

    /// A row gathers along x when it holds at least this many weights per block it reaches.
    static let gatherWeightsPerBlock = 8

    /// Convolves the strip into the output; returns the largest value written. With
    /// ``bandRows`` set, calls `bandDone` with the first output row and the number of rows of
    /// each band once they are written to `output` (for the strip's columns, zero elsewhere:
    /// the caller clears the band's rows before the next).
    ///
    /// - Complexity: O((rows × blocks reached + output rows × blocks occupied) × (2R + 1) × 32).
    func run(bandDone: (_ firstRow: Int, _ rows: Int) -> Void = { _, _ in }) -> Float {
        let b = GatheredCells.blockWidth
        let r2 = 2 * radius
        // Which blocks of this strip each row reaches, and the same transposed: for each
        // block, a bit set over rows.
        let wordsPerBlock = (height + 63) >> 6
        // One allocation: the rows' masks, the blocks' bits, and the blocks' source chunks.
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: height + (wordsPerBlock + 1) * blockCount)
        defer { words.deallocate() }
        let reach = words
        let rowsOfBlock = words + height
        rowsOfBlock.initialize(repeating: 0, count: blockCount * wordsPerBlock)
        let sources = rowsOfBlock + blockCount * wordsPerBlock
        sourceChunks(into: sources)
        for gy in 0..<height {
            var mask: UInt64 = 0
            let chunks = rowChunks[gy]
            if chunks != 0 {
                for block in 0..<blockCount where chunks & sources[block] != 0 {
                    mask |= 1 << UInt64(block)
                    rowsOfBlock[block * wordsPerBlock + gy >> 6] |= 1 << UInt64(gy & 63)
                }
            }
            reach[gy] = mask
        }
        // The ring: row gy of the x-convolution is ring row gy mod `ringRows`.
        var ringRows = 1
        while ringRows < r2 + 1 { ringRows <<= 1 }
        let ringStride = blockCount * b
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: ringRows * ringStride)
        defer { ring.deallocate() }
        let rows = RingRows(base: ring, stride: ringStride, mask: ringRows - 1)
        var maximum: Float = 0
        for gy in 0..<height {
            if reach[gy] != 0 { convolveRow(gy, blocks: reach[gy], into: rows.row(gy)) }
            if gy >= r2 {
                let y = gy - r2
                let top = outputRow(y, rows: rows, rowsOfBlock: rowsOfBlock, wordsPerBlock: wordsPerBlock)
                maximum = max(maximum, top)
                if bandRows > 0 && ((y + 1) % bandRows == 0 || gy == height - 1) {
                    let first = y - y % bandRows
                    bandDone(first, y + 1 - first)
                }
            }
        }
        return maximum
    }

    /// For each block of the strip, the mask of the row chunks holding its sources: the
    /// columns from its first to its last plus 2R.
    func sourceChunks(into sources: UnsafeMutablePointer<UInt64>) {
        let b = GatheredCells.blockWidth
        for block in 0..<blockCount {
            let first = (firstBlock + block) * b
            let last = min(width - 1, first + b - 1 + 2 * radius)
            let low = first >> chunkShift
            let high = last >> chunkShift
            let upper: UInt64 = high == 63 ? ~0 : (1 << UInt64(high + 1)) - 1
            sources[block] = upper & ~((1 << UInt64(low)) - 1)
        }
    }

    /// Convolves grid row `gy` along x into `target` (the ring row), over the blocks set in
    /// `blocks`; other blocks of the ring row are left as they were (never read).
    func convolveRow(_ gy: Int, blocks: UInt64, into target: UnsafeMutablePointer<Float>) {
        let b = GatheredCells.blockWidth
        let row = cells + gy * stride
        if Int(rowCounts[gy]) >= Self.gatherWeightsPerBlock * blocks.nonzeroBitCount {
            var bits = blocks
            while bits != 0 {
                let block = bits.trailingZeroBitCount
                bits &= bits - 1
                let column = (firstBlock + block) * b
                // A last block of at most 16 columns computes only those.
                if outputWidth - column > b / 2 {
                    gatherBlock(row: row, column: column, into: target + block * b, wide: true)
                } else {
                    gatherBlock(row: row, column: column, into: target + block * b, wide: false)
                }
            }
            return
        }
        var bits = blocks
        while bits != 0 {
            let block = bits.trailingZeroBitCount
            bits &= bits - 1
            (target + block * b).update(repeating: 0, count: b)
        }
        scatter(row: row, chunks: rowChunks[gy], into: target)
    }

    /// Adds each nonzero weight of `row` times the taps to the columns of `target` (the
    /// strip's columns) it reaches, in ascending order of source column.
    func scatter(row: UnsafePointer<Float>, chunks: UInt64, into target: UnsafeMutablePointer<Float>) {
        let b = GatheredCells.blockWidth
        let r2 = 2 * radius
        let base = firstBlock * b
        let end = base + blockCount * b
        let sourceEnd = min(width, end + r2)
        var bits = chunks
        while bits != 0 {
            let chunk = bits.trailingZeroBitCount
            bits &= bits - 1
            let low = max(base, chunk << chunkShift)
            let high = min(sourceEnd, (chunk + 1) << chunkShift)
            if low >= high { continue }
            for gx in low..<high {
                let w = row[gx]
                if w == 0 { continue }
                // Output column c gets w × taps[c + 2R − gx], for c in gx − 2R ... gx.
                let first = max(base, gx - r2)
                let last = min(end - 1, gx)
                if first > last { continue }
                let destination = target + (first - base)
                let tap = taps + (first + r2 - gx)
                for i in 0...(last - first) { destination[i] += w * tap[i] }
            }
        }
    }

    /// Writes the x-convolution of `row` at output columns `column ..< column + 32` (or the
    /// first 16 when not `wide`) to `target`, adding source columns in ascending order in
    /// registers.
    @inline(__always)
    func gatherBlock(row: UnsafePointer<Float>, column: Int, into target: UnsafeMutablePointer<Float>, wide: Bool) {
        var a0 = SIMD8<Float>()
        var a1 = SIMD8<Float>()
        var a2 = SIMD8<Float>()
        var a3 = SIMD8<Float>()
        let r2 = 2 * radius
        // Lane i of output column `column + i` takes source column column + i + 2R − t.
        var t = r2
        while t >= 0 {
            let k = SIMD8<Float>(repeating: taps[t])
            let source = UnsafeRawPointer(row + (column + r2 - t))
            a0 += source.loadUnaligned(as: SIMD8<Float>.self) * k
            a1 += source.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self) * k
            if wide {
                a2 += source.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self) * k
                a3 += source.loadUnaligned(fromByteOffset: 96, as: SIMD8<Float>.self) * k
            }
            t -= 1
        }
        let destination = UnsafeMutableRawPointer(target)
        destination.storeBytes(of: a0, as: SIMD8<Float>.self)
        destination.storeBytes(of: a1, toByteOffset: 32, as: SIMD8<Float>.self)
        if wide {
            destination.storeBytes(of: a2, toByteOffset: 64, as: SIMD8<Float>.self)
            destination.storeBytes(of: a3, toByteOffset: 96, as: SIMD8<Float>.self)
        }
    }
}

/// A ring of rows of floats: row `i` lives at ring row `i & mask`.
struct RingRows {
    let base: UnsafeMutablePointer<Float>
    let stride: Int
    let mask: Int

    /// The storage of row `i`.
    @inline(__always)
    func row(_ i: Int) -> UnsafeMutablePointer<Float> { base + (i & mask) * stride }
}

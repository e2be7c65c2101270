import Testing

@testable import HeatmapCore

/// The convolution handed over a band of rows at a time gives the whole output's values, and
/// a recycled grid starts empty.
@Suite struct BandedConvolutionTests {
    /// The bands of `cells`' convolution, put back together, and the maximum.
    static func banded(_ cells: GatheredCells, radius: Int, width: Int, height: Int, bandRows: Int) -> (
        values: [Float], maximum: Float, firstRows: [Int]
    ) {
        var values = [Float](repeating: -1, count: width * height)
        var firstRows: [Int] = []
        let taps = GaussianKernel(radius: radius).taps
        let maximum = taps.withUnsafeBufferPointer { taps in
            cells.convolveInBands(taps: taps, radius: radius, width: width, height: height, bandRows: bandRows) {
                band, first, rows in
                firstRows.append(first)
                for i in 0..<(rows * width) { values[first * width + i] = band[i] }
            }
        }
        return (values, maximum, firstRows)
    }

    @Test("bands of 1, 7, 16 and all rows equal the whole convolution", arguments: [1, 7, 16, 200])
    func bandsEqualWhole(bandRows: Int) {
        for (radius, kinds) in [
            (3, [ConvolutionTests.RowKind.dense, .sparse]), (20, [.clustered, .empty, .sparse]), (40, [.sparse]),
        ] {
            let width = 512 + 2 * radius
            let height = 101 + 2 * radius
            let weights = ConvolutionTests.grid(width: width, height: height, kinds: kinds, seed: UInt64(bandRows))
            let whole = ConvolutionTests.convolve(weights: weights, width: width, height: height, radius: radius)
            var cells = GatheredCells(width: width, height: height)
            cells.withSink(columnOffset: 0, rowOffset: 0) { sink in
                for y in 0..<height {
                    for x in 0..<width where weights[y * width + x] != 0 {
                        sink.add(column: x, row: y, weight: Double(weights[y * width + x]))
                    }
                }
            }
            let bands = Self.banded(cells, radius: radius, width: 512, height: 101, bandRows: bandRows)
            let differing = zip(bands.values, whole.values).filter { $0 != $1 }.count
            #expect(differing == 0, "R\(radius), bands of \(bandRows): \(differing) pixels differ")
            #expect(bands.maximum == whole.maximum)
            #expect(bands.firstRows == Array(Swift.stride(from: 0, to: 101, by: min(bandRows, 101))))
        }
    }

    @Test("a recycled grid is all zeros and empty, whatever the tile before it wrote")
    func recycledGridIsEmpty() {
        let weights = ConvolutionTests.grid(width: 300, height: 280, kinds: [.dense, .clustered], seed: 9)
        var cells = GatheredCells.reused(width: 300, height: 280)
        cells.withSink(columnOffset: 0, rowOffset: 0) { sink in
            for y in 0..<280 {
                for x in 0..<300 where weights[y * 300 + x] != 0 {
                    sink.add(column: x, row: y, weight: Double(weights[y * 300 + x]))
                }
            }
        }
        #expect(!cells.isEmpty)
        cells.recycle()
        // The next grids of up to that size take storage kept by some recycle: all zeros.
        for (width, height) in [(300, 280), (120, 90), (299, 1)] {
            let next = GatheredCells.reused(width: width, height: height)
            #expect(next.isEmpty)
            #expect(next.storage.allSatisfy { $0 == 0 }, "\(width)×\(height)")
            #expect(next.storage.count >= (width + GatheredCells.blockWidth) * height)
        }
    }
}

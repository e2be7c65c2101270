import Testing

@testable import HeatmapCore

/// The blocked, streaming convolution gives exactly the sums of the plain scatter one.
@Suite struct ConvolutionTests {
    /// Kinds of row: every pixel set, a few pixels far apart, runs of pixels, nothing.
    enum RowKind: CaseIterable {
        case dense, sparse, clustered, empty
    }

    /// A grid whose rows are of the given kinds in turn, with weights 0.5...2 (and some
    /// exact zeros in dense rows).
    static func grid(width: Int, height: Int, kinds: [RowKind], seed: UInt64) -> [Float] {
        var rng = SplitMix64(seed: seed)
        var weights = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            switch kinds[y % kinds.count] {
            case .dense:
                for x in 0..<width where Int.random(in: 0..<10, using: &rng) > 0 {
                    weights[y * width + x] = Float.random(in: 0.5...2, using: &rng)
                }
            case .sparse:
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    weights[y * width + Int.random(in: 0..<width, using: &rng)] = Float.random(in: 0.5...2, using: &rng)
                }
            case .clustered:
                let start = Int.random(in: 0..<width, using: &rng)
                for x in start..<min(width, start + 40) {
                    weights[y * width + x] = Float.random(in: 0.5...2, using: &rng)
                }
            case .empty:
                break
            }
        }
        return weights
    }

    /// Loads `weights` into gathered cells through the gather's sink and convolves them.
    static func convolve(weights: [Float], width: Int, height: Int, radius: Int) -> (values: [Float], maximum: Float) {
        var cells = GatheredCells(width: width, height: height)
        cells.withSink(columnOffset: 0, rowOffset: 0) { sink in
            for y in 0..<height {
                for x in 0..<width where weights[y * width + x] != 0 {
                    sink.add(column: x, row: y, weight: Double(weights[y * width + x]))
                }
            }
        }
        let taps = GaussianKernel(radius: radius).taps
        let outWidth = width - 2 * radius
        let outHeight = height - 2 * radius
        var values = [Float](repeating: 0, count: outWidth * outHeight)
        let maximum = values.withUnsafeMutableBufferPointer { out in
            taps.withUnsafeBufferPointer { taps in
                cells.convolve(taps: taps, radius: radius, into: out, width: outWidth, height: outHeight)
            }
        }
        return (values, maximum)
    }

    /// Compares the engine with the reference on one grid.
    static func expectIdentical(width: Int, height: Int, radius: Int, kinds: [RowKind], seed: UInt64) {
        let weights = grid(width: width, height: height, kinds: kinds, seed: seed)
        let engine = convolve(weights: weights, width: width, height: height, radius: radius)
        let reference = ScatterConvolution.convolve(
            weights: weights, width: width, height: height, taps: GaussianKernel(radius: radius).taps, radius: radius)
        let differing = zip(engine.values, reference.values).filter { $0 != $1 }.count
        #expect(differing == 0, "\(width)×\(height) R\(radius) \(kinds): \(differing) pixels differ")
        #expect(engine.maximum == reference.maximum)
    }

    @Test(
        "dense, sparse, clustered and empty rows, alone and mixed, equal the scatter sums", arguments: [1, 3, 20, 40])
    func rowKinds(radius: Int) {
        let width = 512 + 2 * radius
        let height = 96 + 2 * radius
        for kind in RowKind.allCases {
            Self.expectIdentical(width: width, height: height, radius: radius, kinds: [kind], seed: UInt64(radius))
        }
        Self.expectIdentical(width: width, height: height, radius: radius, kinds: [.dense, .sparse], seed: 1)
        Self.expectIdentical(width: width, height: height, radius: radius, kinds: RowKind.allCases, seed: 2)
        Self.expectIdentical(
            width: width, height: height, radius: radius, kinds: [.sparse, .sparse, .clustered, .empty, .dense], seed: 3
        )
    }

    @Test("outputs not a multiple of the block, tiny ones, and wider than one strip")
    func shapes() {
        for (width, height, radius) in [(1, 1, 1), (7, 3, 2), (33, 40, 5), (100, 17, 9), (2200, 12, 3), (4200, 6, 60)] {
            Self.expectIdentical(
                width: width + 2 * radius, height: height + 2 * radius, radius: radius,
                kinds: [.dense, .sparse, .clustered, .empty], seed: UInt64(width))
        }
    }
}

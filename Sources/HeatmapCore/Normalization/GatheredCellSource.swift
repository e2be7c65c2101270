/// Any ``WeightSource`` as a ``CellSource``: a cell of level L ≤ 24 is a pixel of zoom 24 − L
/// at scale 1, so its weight is a gather's (coarser cells add up those of level 24). Each
/// question is a few pixel queries, at most ``chunk`` pixels a side.
package struct GatheredCellSource<Base: WeightSource>: CellSource {
    package typealias Failure = Base.Failure

    /// The source whose pixels are gathered.
    package let base: Base

    /// Wraps `base`.
    package init(base: Base) { self.base = base }

    /// Pixel queries of at most this many pixels a side.
    static var chunk: Int { 1024 }

    package var cellCosts: CellCosts { GatheredCellSource.costs }

    /// A question over the whole world is one query of the world's pixels at level 24 (zoom 0);
    /// others cost a query per chunk of the area's pixels, so the levels step 4 × 4 at a time.
    package static var costs: CellCosts { CellCosts(summarized: 24) }

    package func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) throws(Failure) {
        try base.addWeights(of: query, into: &sink)
    }

    package func intensity(in rect: PixelRect, space: PixelSpace, kernel: GaussianKernel) throws(Failure)
        -> IntensityGrid
    {
        try base.intensity(in: rect, space: space, kernel: kernel)
    }

    package func occupiedCells(_ query: CellQuery) throws(Failure) -> OccupiedCells {
        try base.gatheredCells(query)
    }
}

extension WeightSource {
    /// The answer to `query` from this source's pixels: gathered at the zoom whose pixels are
    /// the cells (of level 24 for coarser cells, summed up), one rectangle of at most
    /// ``GatheredCellSource/chunk`` pixels a side at a time.
    package func gatheredCells(_ query: CellQuery) throws(Failure) -> OccupiedCells {
        let level = min(24, query.level)
        let up = UInt64(query.level - level)
        // The plan asks for levels of 2 and up (pixels of zoom 22 at most).
        guard let space = try? PixelSpace(zoom: 24 - level, scale: 1) else { return OccupiedCells() }
        let world = space.worldSize
        // The area's cells as pixels, joined into one rectangle per chunk of the world they meet.
        var rects: [PixelRect] = []
        let chunk = GatheredCellSource<Self>.chunk
        if let area = query.area {
            let side = 1 << (query.areaLevel - level)
            var chunks: [Int: PixelRect] = [:]
            for cell in area {
                let rect = PixelRect(
                    x: Int(cell & 0xFFFF_FFFF) * side, y: Int(cell >> 32) * side, width: side, height: side)
                let key = rect.y / chunk * (world / chunk + 1) + rect.x / chunk
                chunks[key] = chunks[key].map { $0.union(rect) } ?? rect
            }
            rects = chunks.sorted { $0.key < $1.key }.map(\.value)
        } else {
            rects = [PixelRect(x: 0, y: 0, width: world, height: world)]
        }
        var sums: [UInt64: Double] = [:]
        for rect in rects {
            for y in stride(from: rect.y, to: rect.y + rect.height, by: chunk) {
                for x in stride(from: rect.x, to: rect.x + rect.width, by: chunk) {
                    let part = PixelRect(
                        x: x, y: y, width: min(chunk, rect.x + rect.width - x),
                        height: min(chunk, rect.y + rect.height - y))
                    var cells = GatheredCells.reused(width: part.width, height: part.height)
                    defer { cells.recycle() }
                    try gatherWeights(part, space: space, into: &cells)
                    cells.forEachWeight { column, row, weight in
                        let cell = (UInt64(part.y + row) >> up) << 32 | UInt64(part.x + column) >> up
                        sums[cell, default: 0] += Double(weight)
                    }
                }
            }
        }
        // A pixel reported in parts was summed in `Float`: a little room above the sum.
        let cells = sums.filter { $0.value > 0 }
        return OccupiedCells(
            cells: Array(cells.keys), weights: cells.values.map { Float(roundingUp: $0 * (1 + 0x1p-20)) }
        ).kept(minimum: query.minimum, limit: query.limit)
    }
}

extension GatheredCells {
    /// Calls `body` with the column, row and weight of each cell of positive weight.
    func forEachWeight(_ body: (Int, Int, Float) -> Void) {
        let chunk = 1 << chunkShift
        for y in 0..<height {
            var bits = rowChunks[y]
            while bits != 0 {
                let first = bits.trailingZeroBitCount * chunk
                bits &= bits - 1
                for x in first..<min(width, first + chunk) where storage[y * stride + x] > 0 {
                    body(x, y, storage[y * stride + x])
                }
            }
        }
    }
}

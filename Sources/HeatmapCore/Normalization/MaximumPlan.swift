/// The levels of cells M(z)'s search bounds at one zoom, scale and kernel, coarsest first, with
/// the bounding taps of each, and the margin its bounds are compared with.
///
/// **Taps.** A pixel whose first unit lies in a cell of level L and a point in a cell d cells
/// away along one axis are at least (d − 1) · 2^L + 1 units apart, so at least
/// ⌊((d − 1) · 2^L + 1) · s / 2^(24 − z)⌋ pixels (columns of units u < v differ by at least the
/// columns of v − u); where pixels are whole squares of units and cells whole squares of pixels
/// (scales 1 and 2), at least (d − 1) · (pixels a cell) + 1. The kernel is at most its value at
/// that distance, 1 at d = 0: `taps[d]`, for d up to the reach r, past which it is 0. So the
/// intensity of such a pixel is at most the bound Σ w · taps[|dx|] · taps[|dy|] over the
/// occupied cells within reach, w each cell's weight (rounded up).
///
/// **Margin.** The intensity a tile computes is a sum of products in `Float` (along the row,
/// then down the column, ≤ 2R + 1 terms each: relative error at most (4R + 4) u, u = 2^-24, plus
/// u for the pixel's weight and u a part where a pixel comes in parts); a bound is a sum in
/// `Float` too, each term added through at most n additions (a row's sum, then the rows':
/// n = 4r + 4; pair by pair: n = the terms), so it is at most n u below its value. A pixel's
/// computed intensity is then at most its computed bound times 1 + (4R + n + 16) · 2^-22,
/// which is more than twice both errors and their products (and the rounding of the product
/// and of what left-out cells add): ``margin(additions:)``. A cell is dropped only when its
/// bound times the margin is not above the best intensity found, which is a pixel's as a tile
/// computes it; so no pixel brighter than the answer is left unsearched, and the answer is the
/// tiles' largest pixel, bit for bit.
package struct MaximumPlan: Sendable {
    /// One level of cells.
    package struct Stage: Sendable {
        /// Cells of 2^level × 2^level units.
        package let level: Int
        /// The kernel's largest value between a pixel of a cell and a point d cells away along
        /// one axis, d = 0...reach (`taps[0]` is 1).
        package let taps: [Float]
        /// The share of the best intensity found that cells left out (by a threshold) may add
        /// to a bound in all: a half where cells are 16 pixels wide or more, an eighth finer.
        package let share: Double

        /// The reach in cells.
        package var reach: Int { taps.count - 1 }

        /// (Σ of the taps both ways)²: what cells of weight w each, everywhere within reach, add
        /// to a bound at most (times w).
        package var area: Double {
            let sum = taps.dropFirst().reduce(0.0) { $0 + 2 * Double($1) } + 1
            return sum * sum
        }
    }

    /// The levels, coarsest first; empty when the world is too narrow for the bounds (a
    /// kernel about as wide as the world), and the search then computes every pixel.
    package let stages: [Stage]
    /// The level ranked over the whole world for the dives' starts before the first level is
    /// read, where the source ranks it cheaply (summarised): the first level itself where its
    /// cells are those of level 24 or coarser (at most 2^16 summary rows read), else up to 16 × 16
    /// times coarser, at most level 24, whose heaviest cells the first level's starts lie in
    /// (ranking level 18 of 20M rows whole cost a second); `nil`: from the first level's cells,
    /// read whole. Starting coarser than the first level (its heaviest cells inside the heaviest
    /// of a level 16 × 16 times coarser still) led the dives of 1M rows at zooms 6 to 8 to a
    /// best a third to a seventh of the old search's: lower thresholds, more cells, and one
    /// exact region more.
    package let diveLevel: Int?
    /// R, the kernel's reach in pixels.
    let radius: Int

    /// The plan for `space` and `kernel` over a source of `costs`:
    /// - The fine levels: cells at least R + 1 pixels wide, so that the reach is one cell (half
    ///   that where the source reads rows, whose reads cost by the row: finer cells bound more
    ///   tightly, and what they leave is less to read again), then 4 × 4 times finer while cells
    ///   are wider than a pixel, then the source's finest summarised level where it is finer
    ///   still (down to cells of 2 pixels). From rows, where the summaries end at cells half as
    ///   wide as the first's, those instead of cells 4 × 4 times finer: read without a row, while
    ///   the finer cells' rows are read again by the exact pass.
    /// - Before them, coarse levels: the first read over the whole world has cells 16 times as
    ///   wide as the first fine level's (or the source's finest summarised level where that is
    ///   coarser), then 4 × 4 times finer each where the source answers cheaply (not from its
    ///   rows), and its finest summarised level: their bounds drop the areas too light to hold
    ///   the maximum, whose finer cells are then never read. None where most points are alone
    ///   in their cells of the first fine level and the coarse level holds more than a fifth as
    ///   many occupied cells (points spread evenly at both scales: the coarser bounds would drop
    ///   little, and reading them costs nearly what the fine level does), or where the world is
    ///   too few cells wide. Where points cluster at the coarse scale (a tenth as many cells
    ///   there), the coarse bounds drop all but the clusters' cores.
    /// Every level is one whose world is more cells wide than its loose bounds reach (see
    /// ``MaximumSearch``); when even the finest is not, the plan is empty.
    package init(space: PixelSpace, kernel: GaussianKernel, costs: CellCosts) {
        radius = kernel.radius
        let shift = 24 - space.zoom
        let scale = space.scale
        // The pixel level: 2^pixel units ≤ a pixel (2^shift / scale units).
        var pixel = shift
        while pixel > 0, (1 << pixel) * scale > 1 << shift { pixel -= 1 }
        let wide = costs.isRemote ? (radius + 2) / 2 : radius + 1
        var first = pixel
        while first < 31, (1 << first) * scale < wide << shift { first += 1 }
        func stage(_ level: Int) -> Stage {
            Stage(
                level: level, taps: Self.taps(level: level, space: space, kernel: kernel),
                share: (1 << level) * scale >= 16 << shift ? 0.5 : 0.125)
        }
        func fits(_ level: Int) -> Bool { level < 31 && 1 << (32 - level) > 4 * stage(level).reach + 1 }
        while first > max(2, pixel + 1), !fits(first) { first -= 1 }
        guard fits(first) else {
            (stages, diveLevel) = ([], nil)
            return
        }
        let summarized = costs.summarized ?? 33
        var levels = [first]
        // Summarised levels stop at 24 (pixels of zoom 0): coarser cells would be summed up.
        let coarse = costs.summarized == nil ? first + 4 : min(max(first + 4, summarized), max(24, first + 2))
        // Most points alone in their fine cells, and those cells spread as evenly at the coarse
        // level (more than a fifth as many occupied): coarse bounds would drop little.
        let even = costs.occupied.map {
            $0.cells.indices.contains(coarse) && 2 * $0.cells[first] >= $0.points
                && 5 * $0.cells[coarse] > $0.cells[first]
        }
        if fits(coarse), !(even ?? false) || (costs.summarized ?? 0) > first {
            let cheap = stride(from: coarse - 2, to: first, by: -2).filter { !costs.isRemote || $0 >= summarized }
            let finest = summarized > first && summarized < coarse && !cheap.contains(summarized) ? [summarized] : []
            levels.insert(contentsOf: [coarse] + (cheap + finest).sorted(by: >), at: 0)
        }
        // From rows, cells 4 × 4 times finer than the first cost a read of the rows around those
        // left, which the exact pass reads again: where the summaries end between (cells half as
        // wide as the first's), those, read without a row.
        let next = costs.isRemote && summarized == first - 1 ? summarized : first - 2
        if next > pixel, next >= 2 { levels.append(next) }
        if let last = levels.last, max(summarized, pixel + 1, 2) < last { levels.append(max(summarized, pixel + 1)) }
        stages = levels.map(stage)
        diveLevel = summarized <= levels[0] && costs.isRemote ? max(levels[0], min(levels[0] + 4, 24)) : nil
    }

    /// The bounding taps of cells of `level` at `space` (see the type's comment).
    static func taps(level: Int, space: PixelSpace, kernel: GaussianKernel) -> [Float] {
        let shift = UInt64(24 - space.zoom)
        let scale = UInt64(space.scale)
        let side = UInt64(1) << UInt64(level)
        let aligned = space.pixelLevel.map { $0 <= level } ?? false
        var taps: [Float] = [1]
        for d in UInt64(1)... {
            let distance =
                aligned ? (d - 1) * ((side * scale) >> shift) + 1 : (((d - 1) * side + 1) * scale) >> shift
            guard distance <= UInt64(kernel.radius) else { break }
            taps.append(kernel.taps[kernel.radius + Int(distance)])
        }
        return taps
    }

    /// The factor a bound summed through at most `additions` additions a term is raised by
    /// before it is compared with the best intensity found (see the type's comment).
    package func margin(additions: Int) -> Float {
        1 + Float(4 * radius + additions + 16) * 0x1p-22
    }
}

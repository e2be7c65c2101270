import HeatmapCore
import HeatmapKit

/// The levels M(z)'s kernel-bounded search (``PostgresSource/kernelMaximum(space:kernel:on:)``)
/// goes through at one zoom, scale and kernel, and the bounding taps of each.
///
/// A cell of `level` is a square of 2^level fixed-point units (a pixel of the space of zoom
/// 24 − level, scale 1). For a pixel that overlaps a cell and a point in a cell `d` cells away
/// along one axis, the pixel distance is at least `distance(d)` (1 more than the cells between
/// when cells are whole pixels, else the units between over the units a pixel, rounded down),
/// so the kernel there is at most its value at that distance, 1 at d = 0: the taps. The sum
/// over the cells within reach of weight × tap(dx) × tap(dy) bounds every pixel of the cell.
struct KernelBound: Sendable {
    /// The cell levels, coarsest first, each finer than the one before; the last has cells
    /// of about 4 pixels (2 where the summaries hold them, 8 where they end there), whose
    /// survivors are searched pixel by pixel.
    let levels: [Int]
    /// The taps of each level (2 × reach + 1, the middle one 1).
    let taps: [[Float]]
    /// The coarsest level of cells smaller than the kernel (about 16 pixels).
    let firstFine: Int

    /// The plan for `space` and `kernel`; `nil` where cells would be finer than 4 units or
    /// coarser than 2^24 (zooms outside the regional search's).
    init?(space: PixelSpace, kernel: GaussianKernel, summaryFinest: Int?) {
        let shift = 24 - space.zoom
        // The pixel level: 2^pixel ≤ units a pixel (2^shift / scale).
        var pixel = shift
        while pixel > 0, (1 << pixel) * space.scale > 1 << shift { pixel -= 1 }
        let coarsest = min(24, pixel + 10)
        guard pixel + 1 >= 2, coarsest > pixel + 4 else { return nil }
        // Cells of about 1024, 16 and 4 pixels (and the summaries' finest level between,
        // cheap to read): each level prunes most of what the next would read. Cells of 2
        // pixels only where the summaries hold them: read from the rows, they cost more than
        // the pixel search they spare. Where the summaries end at 4 or 8 pixels, there.
        var levels = [coarsest, pixel + 4, pixel + 2]
        if let summaryFinest {
            if summaryFinest > pixel + 4, summaryFinest < coarsest {
                levels.insert(summaryFinest, at: 1)
            } else if summaryFinest == pixel + 3 {
                levels[2] = summaryFinest
            } else if summaryFinest <= pixel + 1 {
                levels.append(pixel + 1)
            }
        }
        self.firstFine = pixel + 4
        self.levels = levels
        taps = levels.map { Self.taps(level: $0, space: space, kernel: kernel) }
    }

    /// The bounding taps of cells of `level` (2^level units) at `space`.
    static func taps(level: Int, space: PixelSpace, kernel: GaussianKernel) -> [Float] {
        let shift = 24 - space.zoom
        let scale = UInt64(space.scale)
        let side = UInt64(1) << UInt64(level)
        let aligned = space.pixelLevel.map { $0 <= level } ?? false
        var oneSide: [Float] = []
        for d in UInt64(1)... {
            let distance: UInt64 =
                aligned
                ? (d - 1) * ((side * scale) >> UInt64(shift)) + 1
                : (((d - 1) * side + 1) * scale) >> UInt64(shift)
            guard distance <= UInt64(kernel.radius) else { break }
            oneSide.append(kernel.taps[kernel.radius + Int(distance)])
        }
        return oneSide.reversed() + [1] + oneSide
    }

    /// The sum of all the taps of a level, squared: what cells of weight `w` each, everywhere
    /// within reach, add to a bound at most (times `w`).
    static func area(_ taps: [Float]) -> Double {
        let sum = taps.reduce(0.0) { $0 + Double($1) }
        return sum * sum
    }

    /// The reach, in cells, of taps.
    static func reach(_ taps: [Float]) -> Int { (taps.count - 1) / 2 }
}

import Dispatch
import Synchronization

/// The P-th percentile of the non-zero pixel intensities of a whole zoom: a normalisation value
/// that one outlier cannot raise, one per zoom for the whole data set (never per tile).
///
/// **Definition.** At zoom z, scale s and kernel radius R, let V be the multiset of intensities
/// I(p) > 0 over every pixel p of the world (the pixels of `heatmap tile`, exact as the tiles
/// are), and N = |V|. The P-th percentile, 0 < P ≤ 100, is the k-th smallest element of V with
/// k = max(1, ⌈P/100 · N⌉) (the nearest rank): P = 100 is the largest intensity, M(z).
///
/// **Cost.** Every tile whose area padded by R holds weight is drawn once (on every core, a
/// histogram of the top 16 bits of each positive Float's bit pattern per thread, which orders as
/// the values do), then again only the tiles whose values reach the bucket holding rank k (a
/// histogram of the low 16 bits there): exact, in two passes, in O(threads × 2^16) memory
/// whatever the number of pixels. The tiles are found by a walk from the root that keeps only
/// those whose padded area holds weight, level by level.
///
/// **Limit.** A zoom with more than `pixelLimit / tileSize²` such tiles is not drawn: its value
/// is M(z) · P(z₀) / M(z₀) for z₀ the deepest coarser zoom within the limit (the percentile's
/// share of the maximum at z₀, carried to z), and ``zoom`` says z₀.
public struct IntensityPercentile: Sendable, Hashable {
    /// P, in 0 < P ≤ 100.
    public var percentile: Double
    /// The normalisation value: the percentile's intensity at ``zoom`` (times M(z)/M(z₀) when
    /// the zoom asked for was beyond the limit).
    public var value: Double
    /// The zoom whose pixels were ranked: the zoom asked for, or z₀ beyond the limit.
    public var zoom: Int
    /// N: the non-zero pixels ranked at ``zoom``.
    public var pixels: Int
    /// The tiles drawn in the first pass (those of ``zoom`` whose padded area holds weight).
    public var tiles: Int

    /// Creates a result.
    package init(percentile: Double, value: Double, zoom: Int, pixels: Int, tiles: Int) {
        self.percentile = percentile
        self.value = value
        self.zoom = zoom
        self.pixels = pixels
        self.tiles = tiles
    }

    /// The most pixels one pass may draw before a coarser zoom stands in: 2^28 (4096 tiles of
    /// 256 pixels, 1024 of 512, 455 of 768).
    package static let defaultPixelLimit = 1 << 28

    /// Whether `p` is a usable percentile: a number in 0 < p ≤ 100.
    package static func isValid(_ p: Double) -> Bool { p.isFinite && p > 0 && p <= 100 }
}

/// Finds an ``IntensityPercentile`` from any source of intensities.
package enum PercentileSearch {
    /// The tiles of each zoom from 0 to `zoom` whose area padded by the kernel's reach holds
    /// weight, found level by level from the root (children of the tiles kept only), stopping
    /// before the first zoom with more than `limit` of them.
    ///
    /// - Parameter holdsWeight: whether tile x, y of a zoom has weight within the kernel's reach.
    /// - Returns: the tiles of each zoom from 0, down to `zoom` or the last within `limit`.
    public static func occupiedTiles<F: Error>(
        zoom: Int, scale: Int, limit: Int,
        holdsWeight: (Int, Int, PixelSpace) throws(F) -> Bool
    ) throws(F) -> [[(x: Int, y: Int)]] {
        var levels: [[(x: Int, y: Int)]] = []
        var current: [(x: Int, y: Int)] = [(0, 0)]
        for level in 0...zoom {
            guard let space = try? PixelSpace(zoom: level, scale: scale) else { break }
            var kept: [(x: Int, y: Int)] = []
            for tile in current {
                if try holdsWeight(tile.x, tile.y, space) { kept.append(tile) }
            }
            guard kept.count <= limit else { break }
            levels.append(kept)
            if level == zoom { break }
            current = []
            current.reserveCapacity(4 * kept.count)
            for t in kept {
                for dy in 0..<2 {
                    for dx in 0..<2 { current.append((x: 2 * t.x + dx, y: 2 * t.y + dy)) }
                }
            }
        }
        return levels
    }

    /// The k-th smallest (1-based) non-zero intensity of `tiles`, and N, drawn with `intensity`
    /// on `threads` threads in two passes; 0 and 0 without a non-zero pixel.
    public static func rank<F: Error>(
        _ percentile: Double, tiles: [(x: Int, y: Int)], space: PixelSpace, threads: Int,
        intensity: @Sendable (PixelRect) throws(F) -> IntensityGrid
    ) throws(F) -> (value: Float, pixels: Int) {
        let workers = max(1, min(tiles.count, threads))
        let failure = Mutex<F?>(nil)
        // Pass 1: counts by the top 16 bits, and each tile's range of top halves.
        let high = Mutex([Int](repeating: 0, count: 1 << 16))
        let ranges = Mutex([(low: UInt32, high: UInt32)](repeating: (UInt32.max, 0), count: tiles.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var counts = [Int](repeating: 0, count: 1 << 16)
            var mine: [(Int, UInt32, UInt32)] = []
            var t = worker
            while t < tiles.count {
                let grid: IntensityGrid
                do throws(F) {
                    grid = try intensity(PixelRect(tileX: tiles[t].x, y: tiles[t].y, in: space))
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                    return
                }
                var low = UInt32.max
                var top: UInt32 = 0
                for v in grid.values where v > 0 {
                    let half = v.bitPattern >> 16
                    counts[Int(half)] += 1
                    low = min(low, half)
                    top = max(top, half)
                }
                mine.append((t, low, top))
                t += workers
            }
            high.withLock { total in for i in 0..<(1 << 16) { total[i] += counts[i] } }
            ranges.withLock { ranges in for (t, low, top) in mine { ranges[t] = (low, top) } }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        let counts = high.withLock { $0 }
        let pixels = counts.reduce(0, +)
        guard pixels > 0 else { return (0, 0) }
        // P outside 0...100 (or NaN) is clamped, so the rank is always a whole number in 1...N.
        let share = percentile.isNaN ? 1 : min(max(percentile / 100, 0), 1)
        let k = max(1, min(pixels, Int((share * Double(pixels)).rounded(.up))))
        var below = 0
        var bucket = 0
        while below + counts[bucket] < k {
            below += counts[bucket]
            bucket += 1
        }
        // Pass 2: only the tiles that reach the bucket, counted by the low 16 bits there.
        let wanted = UInt32(bucket)
        let spans = ranges.withLock { $0 }
        let again = tiles.indices.filter { spans[$0].low <= wanted && wanted <= spans[$0].high }
        let low = Mutex([Int](repeating: 0, count: 1 << 16))
        let secondWorkers = max(1, min(again.count, threads))
        DispatchQueue.concurrentPerform(iterations: secondWorkers) { worker in
            var counts = [Int](repeating: 0, count: 1 << 16)
            var i = worker
            while i < again.count {
                let tile = tiles[again[i]]
                let grid: IntensityGrid
                do throws(F) {
                    grid = try intensity(PixelRect(tileX: tile.x, y: tile.y, in: space))
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                    return
                }
                for v in grid.values where v > 0 && v.bitPattern >> 16 == wanted {
                    counts[Int(v.bitPattern & 0xFFFF)] += 1
                }
                i += secondWorkers
            }
            low.withLock { total in for i in 0..<(1 << 16) { total[i] += counts[i] } }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        let lowCounts = low.withLock { $0 }
        var rank = k - below
        var bits = 0
        while bits < (1 << 16) - 1 && rank > lowCounts[bits] {
            rank -= lowCounts[bits]
            bits += 1
        }
        return (Float(bitPattern: wanted << 16 | UInt32(bits)), pixels)
    }
}

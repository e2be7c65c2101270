import HeatmapCore
import HeatmapKit

/// How `import --shard` splits a table over its shards: RANGE partitions of the Z-order
/// prefix `key >> 56` (the world as 16 × 16 quadtree cells, numbered -128 ... 127 in Z order,
/// the southern half first as the key is stored signed), each shard one run of consecutive
/// cells, the runs cut where the rows imported split about evenly.
struct ShardLayout: Sendable, Hashable {
    /// The partition key's shift: cells of 2^28 units, whole pixels at every zoom.
    static let shift = 56

    /// The first prefix of each shard but the first (strictly increasing, in -127...127).
    var cuts: [Int64]

    /// Cuts for `shards` shards (1 ... 256) balancing the prefixes of `keys`.
    init(shards: Int, keys: [Int64]) {
        var counts = Self.emptyCounts
        for key in keys { counts[Self.cell(of: key)] += 1 }
        self.init(shards: shards, counts: counts)
    }

    /// Cuts for `shards` shards (1 ... 256) balancing `counts`, the rows of each of the 256
    /// cells (``cell(of:)``): what a first read of a file gathers, in constant memory.
    init(shards: Int, counts: [Int]) {
        let total = counts.reduce(0, +)
        var cuts: [Int64] = []
        var below = 0
        var prefix = -128
        for shard in 1..<max(shards, 1) {
            let target = total / shards * shard + total % shards * shard / shards  // no overflow
            // At least one cell a shard, and cells left for the shards after this one.
            let last = 128 - (shards - shard)
            repeat {
                below += counts[prefix + 128]
                prefix += 1
            } while prefix < last && below < target
            cuts.append(Int64(prefix))
        }
        self.cuts = cuts
    }

    /// No rows in any of the 256 cells.
    static let emptyCounts = [Int](repeating: 0, count: 256)

    /// The index (0 ..< 256) of the cell holding `key`, in `counts`.
    static func cell(of key: Int64) -> Int { Int(key >> Int64(shift)) + 128 }

    /// Counts `point` in its cell, its key computed as the index computes it.
    static func count(_ point: WeightedLatLng, in counts: inout [Int]) {
        let x = UInt64(WebMercator.unitX(longitude: point.coordinate.longitude))
        let y = UInt64(WebMercator.unitY(latitude: point.coordinate.latitude))
        counts[cell(of: Int64(bitPattern: KeyRanges.key(x: x, y: y)))] += 1
    }

    /// The shard whose range holds `key`.
    func shard(of key: Int64) -> Int {
        let prefix = key >> Int64(Self.shift)
        return cuts.firstIndex { prefix < $0 } ?? cuts.count
    }

    /// The bounds of shard `index`'s partition, as `FOR VALUES FROM (…) TO (…)` takes them.
    func bounds(of index: Int) -> (from: String, to: String) {
        (index == 0 ? "MINVALUE" : "\(cuts[index - 1])", index == cuts.count ? "MAXVALUE" : "\(cuts[index])")
    }
}

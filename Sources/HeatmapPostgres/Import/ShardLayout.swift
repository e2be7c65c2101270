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
        var counts = [Int](repeating: 0, count: 256)
        for key in keys { counts[Int(key >> Int64(Self.shift)) + 128] += 1 }
        var cuts: [Int64] = []
        var below = 0
        var prefix = -128
        for shard in 1..<max(shards, 1) {
            let target = keys.count * shard / shards
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

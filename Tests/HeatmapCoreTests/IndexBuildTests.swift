import Testing

@testable import HeatmapCore

@Suite struct IndexBuildTests {
    /// Keys whose varying bits lie in `bits`, and a weight that names each key's position.
    static func keys(count: Int, bits: UInt64, seed: UInt64) -> [UInt64] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in rng.next() & bits }
    }

    @Test(
        "the radix sort orders the keys and carries each weight with its key, whether an odd or an even number of digits varies",
        arguments: [
            (UInt64(0x7FF), "one digit"),
            (UInt64(0x7FF) | 0x7FF << 22, "two digits"),
            (UInt64(0x7FF) | 0x7FF << 11 | 0x7FF << 44, "three digits"),
            (UInt64.max, "all six digits"),
        ])
    func sorts(bits: UInt64, name: String) {
        for count in [2, 511, 512, 5_000] {
            var keys = Self.keys(count: count, bits: bits, seed: bits ^ UInt64(count))
            let original = keys
            var weights = (0..<count).map { Float($0) }
            RadixSort.sort(keys: &keys, weights: &weights)
            #expect(keys == original.sorted(), "\(name), \(count) keys")
            // Each weight is its key's original position: it must still point at that key,
            // and equal keys keep their original order (the sort is stable).
            #expect(weights.indices.allSatisfy { original[Int(weights[$0])] == keys[$0] }, "\(name), \(count) keys")
            #expect(
                weights.indices.dropFirst().allSatisfy { keys[$0 - 1] != keys[$0] || weights[$0 - 1] < weights[$0] },
                "\(name), \(count) keys")
        }
    }

    @Test("build() hands the points to the index and leaves the builder empty for more")
    func buildEmptiesTheBuilder() throws {
        var builder = PointIndex.Builder(capacity: 3)
        try builder.append(latitude: 10, longitude: 20, intensity: 2)
        try builder.append(latitude: -10, longitude: -20, intensity: 3)
        let first = builder.build()
        #expect(first.count == 2)
        #expect(first.totalWeight == 5)
        #expect(builder.count == 0)
        try builder.append(latitude: 1, longitude: 1)
        let second = builder.build()
        #expect(second.count == 1)
        #expect(first.count == 2)
    }
}

import Testing

@testable import HeatmapCore

/// The filter index's slabs are cut by ranks of the times without sorting them: they must be
/// the slabs a sort of the times gives, whatever the times' spread.
@Suite struct FilterSlabsTests {
    /// Times of some shape: spread over a year, piled on a few seconds, or a few over
    /// millennia (spans past 2^32 seconds), with a seed.
    static func times(shape: Int, count: Int, seed: UInt64) -> [Int64] {
        var random = SplitMix64(seed: seed)
        let year: Int64 = 1_704_067_200
        return (0..<count).map { _ in
            switch shape {
            case 0: return year + Int64.random(in: 0..<(366 * 86_400), using: &random)
            case 1: return year + Int64.random(in: 0..<3, using: &random) * 3600
            case 2:
                return Int.random(in: 0..<4, using: &random) == 0
                    ? year + Int64.random(in: 0..<100, using: &random)
                    : Int64.random(in: TimeParser.range, using: &random)
            default:
                // Most points in one second, the rest spread: the histogram's bucket of that
                // second holds most of the ranks.
                return Int.random(in: 0..<5, using: &random) == 0
                    ? year + Int64.random(in: 0..<(30 * 86_400), using: &random) : year + 86_400
            }
        }
    }

    /// The first second of each slab, cut as the builder did with a sort of the times: a slab
    /// ends with the point of each multiple of `size` in time order and every point of its
    /// second, and a slab starting more than 2^32 seconds before the next is cut there.
    static func expectedStarts(_ times: [Int64], size: Int) -> [Int64] {
        let sorted = times.sorted()
        var starts = [sorted[0]]
        for rank in stride(from: size - 1, to: sorted.count - 1, by: size)
        where sorted[rank] < sorted[sorted.count - 1] && sorted[rank] + 1 > starts[starts.count - 1] {
            starts.append(sorted[rank] + 1)
        }
        var bounds: [Int64] = []
        for (k, start) in starts.enumerated() {
            let end = k + 1 < starts.count ? starts[k + 1] : sorted[sorted.count - 1] + 1
            var s = start
            while true {
                bounds.append(s)
                if end - s <= 1 << 32 { break }
                s += 1 << 32
            }
        }
        // Each slab's points: those from its start to the next start; empty slabs left out.
        return bounds.filter { start in
            let next = bounds.first { $0 > start } ?? .max
            return times.contains { $0 >= start && $0 < next }
        }
    }

    @Test("slabs cut by ranks equal slabs cut by a sort", arguments: [0, 1, 2, 3])
    func ranksEqualSort(shape: Int) {
        for (count, size, seed) in [(1, 1, 1), (700, 10, 2), (5000, 97, 3), (20_000, 4096, 4), (3000, 2999, 5)] {
            let times = Self.times(shape: shape, count: count, seed: UInt64(seed) &+ UInt64(shape) << 8)
            let slabbing = FilterIndex.Slabbing(times: times, size: size)
            let starts = Self.expectedStarts(times, size: size)
            let label = "shape \(shape), \(count) points, size \(size)"
            #expect(slabbing.times.count == starts.count, "\(label): \(slabbing.times.count) slabs ≠ \(starts.count)")
            #expect(slabbing.counts.reduce(0, +) == count, "\(label)")
            var held = [Int](repeating: 0, count: slabbing.counts.count)
            var right = true
            for (i, t) in times.enumerated() {
                let s = Int(slabbing.slabOf[i])
                held[s] += 1
                let next = s + 1 < starts.count ? starts[s + 1] : .max
                right = right && starts.indices.contains(s) && t >= starts[s] && t < next
                right = right && slabbing.times[s].contains(t)
            }
            #expect(right, "\(label): a point outside its slab")
            #expect(held == slabbing.counts, "\(label)")
            for s in slabbing.times.indices {
                #expect(slabbing.times[s].upperBound - slabbing.times[s].lowerBound <= Int64(UInt32.max), "\(label)")
                if s > 0 { #expect(slabbing.times[s - 1].upperBound < slabbing.times[s].lowerBound, "\(label)") }
            }
        }
    }

    @Test("the times at ranks are the sorted times there")
    func timesAtRanks() {
        for shape in 0..<4 {
            let times = Self.times(shape: shape, count: 3000, seed: 9 &+ UInt64(shape))
            let sorted = times.sorted()
            let ranks = [0, 1, 17, 1499, 1500, 2998, 2999]
            let found = times.withUnsafeBufferPointer {
                FilterIndex.Slabbing.times(at: ranks, of: $0, low: sorted[0], high: sorted[sorted.count - 1])
            }
            #expect(found == ranks.map { sorted[$0] }, "shape \(shape)")
        }
    }

    @Test("a category dictionary codes values in the order first seen, past its table's growth")
    func dictionaryCodes() throws {
        var dictionary = CategoryDictionary(column: "kind")
        let values = (0..<5000).map { "value \($0 * 7919 % 5000)" } + ["", "é", "a longer value than fifteen bytes"]
        for (code, value) in values.enumerated() {
            #expect(try dictionary.add(value) == UInt16(code))
        }
        for (code, value) in values.enumerated().reversed() {
            #expect(dictionary.code(of: value) == UInt16(code))
            #expect(try dictionary.add(value, count: 2) == UInt16(code))
        }
        #expect(dictionary.code(of: "absent") == nil)
        #expect(dictionary.counts.allSatisfy { $0 == 3 })
        #expect(dictionary.values == values)
    }

    @Test("values found among the recent ones have the dictionary's codes, short or long, whatever their storage")
    func recentValues() throws {
        var dictionary = CategoryDictionary(column: "kind")
        var recent = CategoryDictionary.Recent()
        // Short values (small strings), long ones, and equal values in storage of their own.
        let values = (0..<400).map { "v\($0)" } + (0..<50).map { "a value longer than fifteen bytes \($0)" }
        var random = SplitMix64(seed: 7)
        var found = 0
        for _ in 0..<20_000 {
            let value = String(decoding: Array(values[Int(random.next() % UInt64(values.count))].utf8), as: UTF8.self)
            if let code = recent.code(of: value) {
                #expect(dictionary.code(of: value) == code, "\(value)")
                dictionary.add(code: code)
                found += 1
            } else {
                recent.remember(value, code: try dictionary.add(value))
            }
        }
        #expect(found > 0)
        #expect(dictionary.counts.reduce(0, +) == 20_000)
        #expect(recent.code(of: "absent") == nil)
    }
}

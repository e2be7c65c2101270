import Testing

@testable import HeatmapPostgres

@Suite struct KeyRangesTests {
    /// Whether a key (as stored) is in one of the ranges.
    static func covered(_ key: UInt64, _ ranges: [ClosedRange<Int64>]) -> Bool {
        ranges.contains { $0.contains(Int64(bitPattern: key)) }
    }

    @Test("decomposed ranges hold every position of the rectangle, hug it, and are sorted and apart")
    func decomposedCovers() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<60 {
            let x0 = UInt64.random(in: 0..<40, using: &random)
            let y0 = UInt64.random(in: 0..<40, using: &random)
            let columns = x0..<(x0 + UInt64.random(in: 1...24, using: &random))
            let rows = y0..<(y0 + UInt64.random(in: 1...24, using: &random))
            let ranges = KeyRanges.decomposed(columns: columns, rows: rows, detail: 8)
            for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound < b.lowerBound - 1) }
            let side = UInt64(max(columns.count, rows.count))
            // Cells on the edges are at most side / 8 wide, rounded up to a power of two.
            var edge: UInt64 = 1
            while edge * 8 < side { edge *= 2 }
            var outside = 0
            for y in 0..<(rows.upperBound + 2 * edge) {
                for x in 0..<(columns.upperBound + 2 * edge) {
                    let inside = columns.contains(x) && rows.contains(y)
                    let hit = Self.covered(KeyRanges.key(x: x, y: y), ranges)
                    if inside { #expect(hit, "\(x), \(y) in \(columns) × \(rows)") }
                    if hit && !inside {
                        outside += 1
                        let near =
                            x + edge >= columns.lowerBound && x < columns.upperBound + edge
                            && y + edge >= rows.lowerBound && y < rows.upperBound + edge
                        #expect(near, "\(x), \(y) is far from \(columns) × \(rows)")
                    }
                }
            }
            #expect(outside <= Int(2 * edge * (UInt64(columns.count + rows.count) + 2 * edge)))
        }
    }

    @Test("ranges of the whole world and of its far corner")
    func extremes() {
        let world = KeyRanges.decomposed(columns: 0..<(1 << 32), rows: 0..<(1 << 32))
        #expect(Self.covered(0, world) && Self.covered(UInt64.max, world) && Self.covered(1 << 63, world))
        let corner = KeyRanges.decomposed(columns: ((1 << 32) - 5)..<(1 << 32), rows: ((1 << 32) - 3)..<(1 << 32))
        #expect(Self.covered(KeyRanges.key(x: (1 << 32) - 1, y: (1 << 32) - 1), corner))
        #expect(!Self.covered(KeyRanges.key(x: 0, y: 0), corner))
    }
}

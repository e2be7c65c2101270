import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// The kernel-bounded search's neighbourhoods, found row by row, are the plain sets of every
/// cell within reach (columns wrapping, rows stopping at the poles), sorted, each once.
struct KernelNeighbourhoodTests {
    @Test("neighbourhoods equal the plain sets: random cells, clusters, the world's edges", arguments: 1...12)
    func plainSets(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let columns = [4, 7, 64, 1 << 14][Int(seed) % 4]
        let reach = [0, 1, 2, 5][Int(seed / 4) % 4]
        var cells: [UInt64: Float] = [:]
        let count = Int.random(in: 1...300, using: &rng)
        for _ in 0..<count {
            // Half near a corner (the poles and the antimeridian), half anywhere.
            let near = Bool.random(using: &rng)
            let x =
                near ? [0, columns - 1][Int.random(in: 0...1, using: &rng)] : Int.random(in: 0..<columns, using: &rng)
            let y = near ? Int.random(in: 0..<min(columns, 3), using: &rng) : Int.random(in: 0..<columns, using: &rng)
            cells[UInt64(y) << 32 | UInt64(x)] = 1
        }
        var expected = Set<UInt64>()
        for cell in cells.keys {
            let x = Int(cell & 0xFFFF_FFFF)
            let y = Int(cell >> 32)
            for dy in -reach...reach where y + dy >= 0 && y + dy < columns {
                for dx in -reach...reach {
                    expected.insert(UInt64(y + dy) << 32 | UInt64(((x + dx) % columns + columns) % columns))
                }
            }
        }
        let found = KernelSearch.neighbourhood(of: cells.keys, reach: reach, columns: columns)
        #expect(found == expected.sorted(), "seed \(seed), \(columns) columns, reach \(reach)")
    }

    @Test("sortedUnique sorts and drops repeats")
    func sortedUnique() {
        #expect(KernelSearch.sortedUnique([3, 1, 3, 2, 1, 1]) == [1, 2, 3])
        #expect(KernelSearch.sortedUnique([]) == [])
        #expect(KernelSearch.sortedUnique([5]) == [5])
    }
}

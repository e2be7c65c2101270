import Testing

@testable import HeatmapCore

/// The pieces of the sweep behind M(z) agree with their plain definitions.
@Suite struct CellBoundsTests {
    /// An index of clustered points with some on both sides of the antimeridian.
    static func index(seed: UInt64) throws -> PointIndex {
        try PointIndex(points: MaximumSearchTests.clusters(seed: seed))
    }

    /// The bound of one cell from its definition: every occupied cell within reach, scaled.
    static func definition(of target: UInt64, in grid: CellBounds, taps: [Float]) -> Double {
        let reach = Int64(taps.count - 1)
        let columns = Int64(grid.columns)
        let (tx, ty) = CellBounds.position(target)
        var sum = 0.0
        for (cell, weight) in zip(grid.cells, grid.weights) {
            let (x, y) = CellBounds.position(cell)
            let dy = abs(Int64(y) - Int64(ty))
            var dx = abs(Int64(x) - Int64(tx))
            dx = min(dx, columns - dx)
            if dx <= reach && dy <= reach { sum += Double(weight) * Double(taps[Int(dx)]) * Double(taps[Int(dy)]) }
        }
        return sum
    }

    @Test("bounds of occupied and empty cells equal the definition, across the antimeridian", arguments: [10, 14, 17])
    func boundsMatchDefinition(level: Int) throws {
        let grid = CellBounds(try Self.index(seed: UInt64(level)).occupiedCells(CellQuery(level: level)), level: level)
        try #require(grid.cells.count > 100)
        let taps: [Float] = [1, 0.9, 0.5]
        let targets = MaximumSearch.neighbourhoods(of: grid.cells, reach: 1, columns: Int(grid.columns))
        let bounds = grid.bounds(of: targets, taps: taps)
        for (target, bound) in zip(targets, bounds) {
            let expected = Self.definition(of: target, in: grid, taps: taps)
            #expect(abs(Double(bound) - expected) <= 1e-5 * max(1, expected))
        }
        let own = grid.boundsOfOccupiedCells(taps: taps)
        for (cell, bound) in zip(grid.cells, own) {
            let expected = Self.definition(of: cell, in: grid, taps: taps)
            #expect(abs(Double(bound) - expected) <= 1e-5 * max(1, expected))
        }
    }

    @Test("over 200,000 cells (sorted and swept on two cores) rows come in order and both sweeps agree")
    func largeGrids() throws {
        var random = SplitMix64(seed: 7)
        let points = (0..<400_000).map { _ in
            WeightedLatLng(
                coordinate: Coordinate(
                    latitude: Double.random(in: -60...60, using: &random),
                    longitude: Double.random(in: -180..<180, using: &random)),
                intensity: Double.random(in: 0.5...2, using: &random))
        }
        let grid = CellBounds(try PointIndex(points: points).occupiedCells(CellQuery(level: 20)), level: 20)
        try #require(grid.cells.count > 200_000)
        #expect(zip(grid.cells, grid.cells.dropFirst()).allSatisfy { $0 < $1 })
        let taps: [Float] = [1, 1, 0.7]
        let symmetric = grid.boundsOfOccupiedCells(taps: taps)
        let swept = grid.bounds(of: grid.cells, taps: taps)
        #expect(zip(symmetric, swept).allSatisfy { abs($0 - $1) <= 1e-5 * max(1, $1) })
        #expect(symmetric.count == grid.cells.count && symmetric.contains { $0 > 2 })
    }

    @Test("neighbourhoods, splits and children are the plain sets, sorted, without repeats", arguments: 1...3)
    func neighbourhoodsAndSplits(reach: Int) throws {
        let columns = 64
        let cells: [UInt64] = [(0, 0), (63, 0), (5, 3), (6, 3), (40, 3), (5, 5), (0, 63), (62, 63)]
            .map { UInt64($0.1) << 32 | UInt64($0.0) }
        var expected = Set<UInt64>()
        for cell in cells {
            let (x, y) = CellBounds.position(cell)
            for dy in -reach...reach where (0..<columns).contains(Int(y) + dy) {
                for dx in -reach...reach {
                    expected.insert(UInt64(Int(y) + dy) << 32 | UInt64((Int(x) + dx + columns) % columns))
                }
            }
        }
        #expect(MaximumSearch.neighbourhoods(of: cells, reach: reach, columns: columns) == expected.sorted())
        let split = MaximumSearch.split(cells, by: 4)
        #expect(split == split.sorted() && Set(split).count == cells.count * 16)
        #expect(split.allSatisfy { part in cells.contains(((part >> 32) / 4) << 32 | (part & 0xFFFF_FFFF) / 4) })
        // The children of some cells among the neighbourhood of all, four times finer.
        let finer = MaximumSearch.neighbourhoods(of: split, reach: reach, columns: columns * 4)
        let parents = Array(cells.prefix(4))
        #expect(
            MaximumSearch.inside(finer, parents: parents, shift: 2)
                == finer.filter { parents.contains(((($0 >> 32) >> 2) << 32) | ($0 & 0xFFFF_FFFF) >> 2) })
    }

    @Test("the heaviest cells are found in order, ties by place")
    func highest() {
        #expect(MaximumSearch.highest(3, of: [1, 5, 2, 5, 9, 0]) == [4, 1, 3])
        #expect(MaximumSearch.highest(10, of: [2, 1]) == [0, 1])
    }
}

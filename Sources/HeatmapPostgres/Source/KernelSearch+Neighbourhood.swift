extension KernelSearch {
    /// The packed cells (`row << 32 | column`) within `reach` cells of `cells` along each axis
    /// (columns wrap, rows stop at the poles), sorted, each once.
    ///
    /// Row by row rather than through a hash set of every neighbour: the cells sorted, each
    /// row's columns widened by `reach` (sorted, without repeats), then each row of the result
    /// the union of the widened rows within `reach` of it.
    static func neighbourhood(of cells: Dictionary<UInt64, Float>.Keys, reach: Int, columns: Int) -> [UInt64] {
        let sorted = cells.sorted()
        var widened: [(row: Int, columns: [Int])] = []
        var scratch: [Int] = []
        var i = 0
        while i < sorted.count {
            let row = Int(sorted[i] >> 32)
            scratch.removeAll(keepingCapacity: true)
            while i < sorted.count, Int(sorted[i] >> 32) == row {
                let x = Int(sorted[i] & 0xFFFF_FFFF)
                for dx in -reach...reach { scratch.append(((x + dx) % columns + columns) % columns) }
                i += 1
            }
            widened.append((row, sortedUnique(scratch)))
        }
        var found: [UInt64] = []
        var first = 0
        var next = 0
        for entry in widened {
            let low = max(next, entry.row - reach, 0)
            let high = min(entry.row + reach, columns - 1)
            guard low <= high else { continue }
            for row in low...high {
                while widened[first].row < row - reach { first += 1 }
                scratch.removeAll(keepingCapacity: true)
                var j = first
                while j < widened.count, widened[j].row <= row + reach {
                    scratch += widened[j].columns
                    j += 1
                }
                for x in j - first == 1 ? widened[first].columns : sortedUnique(scratch) {
                    found.append(UInt64(row) << 32 | UInt64(x))
                }
            }
            next = high + 1
        }
        return found
    }

    /// `values` sorted, each once.
    static func sortedUnique(_ values: [Int]) -> [Int] {
        var result = values.sorted()
        var kept = 0
        for value in result where kept == 0 || result[kept - 1] != value {
            result[kept] = value
            kept += 1
        }
        result.removeLast(result.count - kept)
        return result
    }

    /// Three of the heaviest cells of `level` for the dives: the heaviest among the children of
    /// the three heaviest cells of the summaries' level 4 times coarser where the summaries
    /// hold one (ranking those costs a sixteenth of ranking the level's own cells), else of
    /// the level's own. Either is a place to start a dive; the search is exact from any.
    func heaviestCells(level: Int) throws(PostgresError) -> [(x: UInt64, y: UInt64, weight: Double)] {
        let above = min(CellSummaries.levels.upperBound, level + 2)
        guard above > level else { return try source.cellWeights(level: level, minimum: 0, limit: 3, on: connection) }
        let parents = try source.cellWeights(level: above, minimum: 0, limit: 3, on: connection)
        guard !parents.isEmpty else { return [] }
        return try source.cellWeights(
            level: level, within: parents.map { $0.y << 32 | $0.x }, withinLevel: above, minimum: 0, limit: 3,
            on: connection)
    }
}

/// Lists of cells for M(z)'s search: packed `row << 32 | column`, ascending.
extension MaximumSearch {
    /// The cells within `reach` cells of each of `cells` (packed row-major, ascending) along
    /// each axis, and the cells themselves, in the same order, without repeats: each row of
    /// `cells` widened by `reach` columns either side (columns wrap around the world), then
    /// each target row merged from the widened rows within `reach` rows (rows stop at the poles).
    ///
    /// - Complexity: O(c · reach²) for c cells.
    static func neighbourhoods(of cells: [UInt64], reach: Int, columns: Int) -> [UInt64] {
        let starts = cells.withUnsafeBufferPointer(CellBounds.rowStarts)
        let rowCount = starts.count - 1
        func row(_ r: Int) -> Int { Int(cells[starts[r]] >> 32) }
        let widened = (0..<rowCount).map { widen(cells[starts[$0]..<starts[$0 + 1]], by: reach, columns: columns) }
        var result: [UInt64] = []
        result.reserveCapacity(cells.count * (2 * reach + 1))
        var done = -1
        var low = 0
        for r in 0..<rowCount {
            let first = max(row(r) - reach, done + 1, 0)
            let last = min(row(r) + reach, columns - 1)
            guard first <= last else { continue }
            for target in first...last {
                while row(low) < target - reach { low += 1 }
                var merged: [UInt32] = []
                var n = low
                while n < rowCount && row(n) <= target + reach {
                    merged = merge(merged, widened[n])
                    n += 1
                }
                for x in merged { result.append(UInt64(target) << 32 | UInt64(x)) }
            }
            done = last
        }
        return result
    }

    /// The columns of one row of packed cells (ascending) and those within `reach` of them,
    /// ascending, without repeats; columns wrap around the world.
    static func widen(_ cells: ArraySlice<UInt64>, by reach: Int, columns: Int) -> [UInt32] {
        guard 2 * reach + 1 < columns else { return (0..<columns).map { UInt32($0) } }
        var result: [UInt32] = []
        result.reserveCapacity(cells.count * (2 * reach + 1))
        var wrapped: [UInt32] = []
        for cell in cells {
            let x = Int(cell & 0xFFFF_FFFF)
            for column in (x - reach)...(x + reach) {
                if column < 0 || column >= columns {
                    wrapped.append(UInt32((column + columns) % columns))
                } else if result.last.map({ $0 < UInt32(column) }) ?? true {
                    result.append(UInt32(column))
                }
            }
        }
        return wrapped.isEmpty ? result : merge(result, Array(Set(wrapped)).sorted())
    }

    /// The union of two ascending lists without repeats, ascending, without repeats.
    static func merge(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        var result: [UInt32] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            let next = j == b.count || (i < a.count && a[i] <= b[j]) ? a[i] : b[j]
            if i < a.count && a[i] == next { i += 1 }
            if j < b.count && b[j] == next { j += 1 }
            result.append(next)
        }
        return result
    }

    /// The `factor` × `factor` cells of the finer level in each of `cells` (packed
    /// row-major, ascending, without repeats), in the same order: each row of `cells`
    /// gives `factor` rows, each of its cells `factor` columns in each.
    static func split(_ cells: [UInt64], by factor: UInt64) -> [UInt64] {
        let starts = cells.withUnsafeBufferPointer(CellBounds.rowStarts)
        var parts: [UInt64] = []
        parts.reserveCapacity(cells.count * Int(factor * factor))
        for r in 0..<(starts.count - 1) {
            let y = cells[starts[r]] >> 32
            for j in 0..<factor {
                for cell in cells[starts[r]..<starts[r + 1]] {
                    let x = cell & 0xFFFF_FFFF
                    for i in 0..<factor { parts.append((y * factor + j) << 32 | (x * factor + i)) }
                }
            }
        }
        return parts
    }

    /// The cells of `targets` that lie in one of `parents` (ascending, of the level `shift`
    /// levels coarser), in the same order.
    ///
    /// - Complexity: O(t log p) for t targets and p parents.
    static func inside(_ targets: [UInt64], parents: [UInt64], shift: Int) -> [UInt64] {
        parents.withUnsafeBufferPointer { parents in
            targets.filter { target in
                let parent = ((target >> 32) >> UInt64(shift)) << 32 | (target & 0xFFFF_FFFF) >> UInt64(shift)
                let i = parents.firstIndex(atLeast: parent, in: 0..<parents.count)
                return i < parents.count && parents[i] == parent
            }
        }
    }

    /// `values` in ascending order, each once.
    static func sortedWithoutRepeats(_ values: [UInt64]) -> [UInt64] {
        var values = values
        var unused = [Float](repeating: 0, count: values.count)
        RadixSort.sort(keys: &values, weights: &unused)
        var kept = 0
        for i in values.indices where i == 0 || values[i] != values[kept - 1] {
            values[kept] = values[i]
            kept += 1
        }
        values.removeLast(values.count - kept)
        return values
    }

    /// The indices of the `count` highest values, highest first (ties by place).
    ///
    /// - Complexity: O(n) plus O(count) for each value that enters the list.
    static func highest(_ count: Int, of values: [Float]) -> [Int] {
        var top: [Int] = []
        var threshold = -Float.infinity
        values.withUnsafeBufferPointer { v in
            for i in v.indices where v[i] > threshold || top.count < count {
                var slot = top.count
                while slot > 0 && v[top[slot - 1]] < v[i] { slot -= 1 }
                top.insert(i, at: slot)
                if top.count > count { top.removeLast() }
                if top.count == count { threshold = v[top[count - 1]] }
            }
        }
        return top
    }
}

import HeatmapCore
import HeatmapKit

/// The weights of the cells of one quadtree level that a statement returned, as a
/// ``WeightSource`` over the pixel space whose pixels are those cells (zoom 24 − level, scale
/// 1): M(z)'s kernel-bounded search convolves them with its bounding taps in memory.
struct CellWeights: WeightSource {
    typealias Failure = Never

    /// Each row's cells: columns ascending, and their weights.
    private var rows: [UInt64: (columns: [UInt64], weights: [Double])] = [:]
    /// The number of cells.
    private(set) var count = 0
    /// The heaviest cell, `nil` without cells.
    private(set) var heaviest: (x: UInt64, y: UInt64, weight: Double)?

    /// The cells, in any order, each once.
    init(_ cells: [(x: UInt64, y: UInt64, weight: Double)]) {
        var grouped: [UInt64: [(UInt64, Double)]] = [:]
        for cell in cells where cell.weight > 0 {
            grouped[cell.y, default: []].append((cell.x, cell.weight))
            if cell.weight > heaviest?.weight ?? 0 { heaviest = cell }
        }
        count = cells.count
        for (row, list) in grouped {
            let sorted = list.sorted { $0.0 < $1.0 }
            rows[row] = (sorted.map(\.0), sorted.map(\.1))
        }
    }

    /// The occupied cells' rows.
    var occupiedRows: Dictionary<UInt64, (columns: [UInt64], weights: [Double])>.Keys { rows.keys }

    /// The occupied columns of `row`, ascending.
    func columns(ofRow row: UInt64) -> [UInt64] { rows[row]?.columns ?? [] }

    func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) {
        for row in query.rows {
            guard let cells = rows[UInt64(row)] else { continue }
            let low = UInt64(query.columns.lowerBound)
            var i = cells.columns.partitioningIndex { $0 >= low }
            while i < cells.columns.count, cells.columns[i] < UInt64(query.columns.upperBound) {
                sink.add(column: Int(cells.columns[i]), row: row, weight: cells.weights[i])
                i += 1
            }
        }
    }
}

extension Array where Element == UInt64 {
    /// The first index whose element satisfies `predicate` (false, then true, along the array).
    func partitioningIndex(where predicate: (UInt64) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// The points a ``PointFilter`` keeps of a ``FilterIndex``: a ``WeightSource`` whose pixels
/// and cells are the sums of its parts' (the slabs kept, whole or masked), so that the one
/// gather, convolution and M(z) search draw the filtered set exactly.
package struct FilteredPoints: Sendable {
    /// The indexes whose points are kept (their weights masked where the filter cuts them).
    let parts: [PointIndex]
    /// The same points for pixels of a coarse level or coarser, coarsest level first: the
    /// masked slabs, and coarse nodes (see `FilterIndex+Coarse.swift`) in place of runs of
    /// slabs covered whole.
    let coarse: [(level: Int, parts: [PointIndex])]
    /// For a filter keeping every point of an index: that index's summaries, read for pixels of
    /// a level they keep in place of `parts`, with `beside` (live points' parts) added.
    let whole: CellSummaries?
    /// The parts read beside `whole`'s summaries.
    let beside: [PointIndex]

    init(
        parts: [PointIndex], coarse: [(level: Int, parts: [PointIndex])] = [], whole: CellSummaries? = nil,
        beside: [PointIndex] = []
    ) {
        self.parts = parts
        self.coarse = coarse
        self.whole = whole
        self.beside = beside
    }

    /// The parts to read for pixels or cells of `level` (2^level units): the coarsest
    /// quantisation no coarser than them, else the slabs.
    func parts(level: Int?) -> [PointIndex] {
        guard let level else { return parts }
        return coarse.first { $0.level <= level }?.parts ?? parts
    }

    /// Whether the filter keeps no point of positive weight: a tile of it is empty.
    package var isEmpty: Bool { parts.allSatisfy { $0.count == 0 || $0.totalWeight == 0 } }

    /// The sum of the weights kept.
    package var totalWeight: Double { parts.reduce(0) { $0 + $1.totalWeight } }

    /// The points kept that weigh something (those drawn): their number, and indexes holding
    /// exactly them, for their extent (``PointIndex/latitudeRange``,
    /// ``PointIndex/longitudeInterval(of:)``). A point of weight 0 in the data is not counted:
    /// it draws nothing, and a slab the filter cuts to such points alone is left out of `parts`.
    /// A part holding none is given as it is; one holding some, as a copy without them.
    ///
    /// - Complexity: O(points kept), a pass over their weights, and O(k) to copy a part
    ///   holding points of weight 0 (k its points).
    package var drawnPoints: (count: Int, indexes: [PointIndex]) {
        var count = 0
        var indexes: [PointIndex] = []
        for part in parts {
            let positive = part.weights.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
            count += positive
            if positive == part.count {
                indexes.append(part)
            } else if positive > 0 {
                let kept = part.weights.indices.filter { part.weights[$0] > 0 }
                indexes.append(
                    PointIndex(
                        sortedKeys: kept.map { part.keys[$0] }, weights: kept.map { part.weights[$0] },
                        summarised: false))
            }
        }
        return (count, indexes)
    }

    /// The memory the masked copies hold, in bytes (the slabs kept whole are shared).
    package var byteCount: Int { parts.reduce(0) { $0 + $1.byteCount } }

    /// These points and `other`'s drawn as one (the filtered points of a file and of the live
    /// points added to it).
    package func merged(with other: FilteredPoints) -> FilteredPoints {
        let levels = Set(coarse.map(\.level) + other.coarse.map(\.level)).sorted(by: >)
        return FilteredPoints(
            parts: parts + other.parts,
            coarse: levels.map { ($0, parts(level: $0) + other.parts(level: $0)) }, whole: whole,
            beside: beside + other.parts)
    }
}

extension FilteredPoints: WeightSource {
    /// In memory: never fails.
    package typealias Failure = Never

    /// Each part's pixels of `query`, added.
    package func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) {
        if let summary = query.space.pixelLevel.flatMap({ whole?.summary(level: $0) }) {
            let pixels = PixelQuery(
                space: query.space, x0: query.columns.lowerBound, x1: query.columns.upperBound,
                y0: query.rows.lowerBound, y1: query.rows.upperBound)
            summary.walk(pixels, into: &sink.grid)
            for part in beside { part.addWeights(of: query, into: &sink) }
            return
        }
        for part in parts(level: query.space.pixelLevel) { part.addWeights(of: query, into: &sink) }
    }
}

extension FilteredPoints: CellSource {
    /// Each part's cells, merged in Morton order (a cell in several parts once, its weights
    /// added and rounded up), then thinned to the query's minimum and limit.
    package func occupiedCells(_ query: CellQuery) -> OccupiedCells {
        var whole = query
        whole.minimum = 0
        whole.limit = nil
        var merged = OccupiedCells(isMortonOrdered: true)
        for part in parts(level: query.level) { merged = merged.merged(with: part.occupiedCells(whole)) }
        return merged.kept(minimum: query.minimum, limit: query.limit)
    }

    /// A pass over each part's keys a question.
    package var cellCosts: CellCosts { CellCosts() }

    /// M(z) of the points kept, exact: the one search (see ``WeightSource/maximumIntensity(space:kernel:)``).
    package func maximumIntensity(space: PixelSpace, kernel: GaussianKernel) -> Float {
        MaximumSearch.run(over: self, space: space, kernel: kernel).value
    }
}

/// Whether an area holds weight: what `PyramidWalk`-style walks ask of each tile's padded
/// area before visiting it (and its children). The in-memory index answers from memory; a
/// database answers with an `EXISTS` over the rows, never reading them.
package protocol WeightPresence: Sendable {
    /// What a question can fail with; `Never` for sources in memory.
    associatedtype Failure: Error

    /// Whether any point of weight > 0 lies in a pixel of `rect` (any rectangle: columns wrap
    /// around the world, rows outside it hold nothing).
    func holdsWeight(in rect: PixelRect, space: PixelSpace) throws(Failure) -> Bool
}

extension WeightQuery {
    /// The queries inside the world that together cover `rect`: one per copy of the world its
    /// columns overlap (the whole width once when it is as wide as the world), rows clipped.
    public static func covering(_ rect: PixelRect, space: PixelSpace) -> [WeightQuery] {
        let whole =
            rect.width >= space.worldSize
            ? PixelRect(x: 0, y: rect.y, width: space.worldSize, height: rect.height) : rect
        return whole.worldParts(in: space).map { WeightQuery(space: space, columns: $0.columns, rows: $0.rows) }
    }
}

extension PointIndex: WeightPresence {
    /// Whether the index holds weight in `rect`, from its cells (``weight(in:space:)``).
    public func holdsWeight(in rect: PixelRect, space: PixelSpace) -> Bool { weight(in: rect, space: space) > 0 }
}

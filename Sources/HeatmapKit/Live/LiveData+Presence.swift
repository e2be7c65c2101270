import HeatmapCore

extension LiveData: WeightPresence {
    /// Whether either index holds weight in `rect`.
    func holdsWeight(in rect: PixelRect, space: PixelSpace) -> Bool {
        base.holdsWeight(in: rect, space: space) || delta.holdsWeight(in: rect, space: space)
    }
}

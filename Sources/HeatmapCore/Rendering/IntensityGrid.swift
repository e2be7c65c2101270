/// Heatmap intensities over a rectangle of pixels, before normalisation.
public struct IntensityGrid: Sendable {
    /// The number of columns.
    public let width: Int
    /// The number of rows.
    public let height: Int
    /// `width * height` intensities, row-major, north row first.
    public let values: [Float]
    /// The largest value, 0 for a grid with no point within reach.
    public let maximum: Float
    /// Whether no point of positive weight lies within reach of any pixel: nothing to draw.
    public let isEmpty: Bool

    /// The intensity at column `x` and row `y`.
    public subscript(x: Int, y: Int) -> Float { values[y * width + x] }
}

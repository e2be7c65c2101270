/// Maps normalised intensity to colour, as `GMUGradient` in Google's heatmap utility.
///
/// `colors[i]` is the colour at intensity `startPoints[i]` (a fraction of the zoom's
/// maximum). Between start points colours are interpolated in HSV (hue the short way round
/// the wheel, alpha linearly); below the first start point the first colour fades in from
/// transparent; above the last one the last colour holds.
public struct Gradient: Sendable, Hashable {
    /// The colours, one a start point.
    public let colors: [RGBAColor]
    /// Strictly increasing fractions in 0...1.
    public let startPoints: [Double]
    /// The number of entries of the colour map, at least 2. Default 1000.
    public let colorMapSize: Int

    /// The largest colour map accepted, to bound memory.
    public static let maximumColorMapSize = 1 << 20

    /// Creates a gradient.
    ///
    /// - Throws: ``HeatmapError/invalidGradient(_:)`` when there are no colours, the counts
    ///   differ, a start point is not a number in 0...1 or not above the one before, or
    ///   `colorMapSize` is outside 2...``maximumColorMapSize``.
    public init(colors: [RGBAColor], startPoints: [Double], colorMapSize: Int = 1000) throws(HeatmapError) {
        guard !colors.isEmpty else { throw .invalidGradient("it has no colours") }
        guard colors.count == startPoints.count else {
            throw .invalidGradient("\(colors.count) colours but \(startPoints.count) start points; give one each")
        }
        for (i, point) in startPoints.enumerated() {
            guard point.isFinite, (0...1).contains(point) else {
                throw .invalidGradient("start point \(i) is \(point), outside 0...1")
            }
            if i > 0 && point <= startPoints[i - 1] {
                throw .invalidGradient(
                    "start point \(i) (\(point)) is not above start point \(i - 1) (\(startPoints[i - 1])); they must increase"
                )
            }
        }
        guard (2...Gradient.maximumColorMapSize).contains(colorMapSize) else {
            throw .invalidGradient("colorMapSize \(colorMapSize) is outside 2...\(Gradient.maximumColorMapSize)")
        }
        self.init(checkedColors: colors, startPoints: startPoints, colorMapSize: colorMapSize)
    }

    private init(checkedColors colors: [RGBAColor], startPoints: [Double], colorMapSize: Int) {
        self.colors = colors
        self.startPoints = startPoints
        self.colorMapSize = colorMapSize
    }

    /// Google's default: RGB(102, 225, 0) at 0.2 and RGB(255, 0, 0) at 1, 1000 entries.
    public static let `default` = Gradient(
        checkedColors: [RGBAColor(red: 102, green: 225, blue: 0), RGBAColor(red: 255, green: 0, blue: 0)],
        startPoints: [0.2, 1], colorMapSize: 1000)

    /// The colour-map size of the `heatmap` command and server: 160 entries, so that with fully
    /// transparent every tile takes at most 256 colours and is written as a palette PNG (see
    /// ``paletteDefault``), and a dense 512 px tile takes at most a third of the bytes of the
    /// RGBA PNG of Google's map (255 entries took 0.33-0.39). The library's default stays
    /// Google's 1000.
    public static let paletteColorMapSize = 160

    /// Google's colours and start points with a ``paletteColorMapSize``-entry colour map: the
    /// gradient of the `heatmap` command and server. On the benchmark's tiles a pixel differs
    /// from ``default``'s by at most 6 levels of 255 (docs/guides/tile-formats.md).
    public static let paletteDefault = Gradient(
        checkedColors: Gradient.default.colors, startPoints: Gradient.default.startPoints,
        colorMapSize: paletteColorMapSize)

    /// The colour of entry `index` of the colour map, before opacity: the gradient at
    /// `index / (colorMapSize - 1)`.
    package func color(atEntry index: Int) -> RGBAColor {
        let target = Double(index) / Double(colorMapSize - 1)
        guard let next = startPoints.firstIndex(where: { $0 > target }) else { return colors[colors.count - 1] }
        let to = colors[next]
        var from = to
        from.alpha = 0
        var lower = 0.0
        if next > 0 {
            from = colors[next - 1]
            lower = startPoints[next - 1]
        }
        return HSVColor.interpolate(from: from, to: to, ratio: (target - lower) / (startPoints[next] - lower))
    }
}

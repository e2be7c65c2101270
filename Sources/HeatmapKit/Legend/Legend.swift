import HeatmapCore

/// The colour scale of a zoom with its values: what a map's legend shows.
///
/// Stop i of k sits at entry eᵢ = round(i · (n − 1) / (k − 1)) of the colour map of n entries:
/// its ``LegendStop/value`` is τₑ · M(z), the least intensity that takes that entry (see
/// ``ColorScale``), its ``LegendStop/color`` the entry's colour with the opacity applied. A
/// pixel of intensity I ≥ value(i) takes the colour of stop i or one above it.
public struct Legend: Sendable, Hashable {
    /// The zoom the legend is for.
    public var zoom: Int
    /// The scale of the tiles it describes (1, 2, 3): M(z) depends on it.
    public var scale: Int
    /// M(z) and how it was chosen.
    public var normalization: Normalization
    /// How I / M picks an entry.
    public var colorScale: ColorScale
    /// The gradient.
    public var gradient: Gradient
    /// The opacity applied to the colours.
    public var opacity: Double
    /// The stops, lowest first: the first at 0, the last at M(z).
    public var stops: [LegendStop]

    /// The normalisation value M(z).
    public var maximum: Double { normalization.value }

    /// The legend of settings at a zoom and scale with normalisation value `normalization`.
    ///
    /// - Parameters:
    ///   - zoom: the zoom, 0...22.
    ///   - scale: the tiles' scale, 1...3.
    ///   - normalization: M(z) and how it was chosen.
    ///   - settings: the gradient, colour scale and opacity drawn with.
    ///   - stops: how many stops, 2...``maximumStops`` (clamped).
    package init(
        zoom: Int, scale: Int, normalization: Normalization, settings: HeatmapSettings, stops: Int = defaultStops
    ) {
        self.zoom = zoom
        self.scale = scale
        self.normalization = normalization
        colorScale = settings.colorScale
        gradient = settings.gradient
        opacity = settings.opacity
        let map = ColorMap(gradient: settings.gradient, opacity: settings.opacity, scale: .linear)
        let n = map.count
        let k = min(max(stops, 2), Self.maximumStops, n)
        let thresholds = settings.colorScale.thresholds(count: n)
        self.stops = (0..<k).map { i in
            let e = Int((Double(i) * Double(n - 1) / Double(k - 1)).rounded())
            let color = RGBAColor(
                red: map.entries[4 * e], green: map.entries[4 * e + 1], blue: map.entries[4 * e + 2],
                alpha: map.entries[4 * e + 3])
            return LegendStop(
                value: thresholds[e] * normalization.value, fraction: Double(e) / Double(n - 1), entry: e, color: color)
        }
    }

    /// Stops a legend has unless asked otherwise.
    public static let defaultStops = 5
    /// The most stops a legend has.
    package static let maximumStops = 64
}

/// One stop of a ``Legend``.
public struct LegendStop: Sendable, Hashable {
    /// The least intensity that takes this colour: τₑ · M(z).
    public var value: Double
    /// Where on the ramp it sits, e / (n − 1), 0...1 (f(I / M) for the scale's curve f).
    public var fraction: Double
    /// The colour map entry e.
    package var entry: Int
    /// The entry's colour, its alpha times the opacity.
    public var color: RGBAColor
}

extension HeatmapTileLayer {
    /// The legend of a zoom and scale: M(z) (computed if needed, as for a tile), the colour scale
    /// and `stops` values with their colours; `settings` for one request, as for tiles.
    ///
    /// - Throws: ``HeatmapError`` for invalid settings, data or zoom.
    public func legend(zoom: Int, scale: Int = 1, settings: HeatmapSettings? = nil, stops: Int = Legend.defaultStops)
        throws(HeatmapError) -> Legend
    {
        let snapshot = try snapshot(overriding: settings)
        let space = try PixelSpace(zoom: zoom, scale: scale)
        let normalization = try snapshot.normalization(for: space, source: try snapshot.data.source())
        return Legend(zoom: zoom, scale: scale, normalization: normalization, settings: snapshot.settings, stops: stops)
    }
}

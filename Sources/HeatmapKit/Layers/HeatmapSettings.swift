import HeatmapCore

/// How a heatmap is drawn: everything but the data.
public struct HeatmapSettings: Sendable, Hashable {
    /// The radius of the kernel in points, 10...50. Default 20. At scale s it reaches
    /// `radius * s` pixels, so a tile looks the same at any scale.
    public var radius: Int
    /// The colours. Default ``Gradient/default`` (Google's green to red).
    public var gradient: Gradient
    /// Multiplies every pixel's alpha, 0...1. Default 0.7.
    public var opacity: Double
    /// A fixed normalisation value M for every zoom, or `nil` (the default) for the true
    /// maximum intensity of the data at each zoom and scale.
    public var maximumIntensity: Double?
    /// How intensities pick colours: linear (the default, Google's), sqrt or log; see
    /// ``ColorScale``.
    public var colorScale: ColorScale
    /// Google's `minimumZoomIntensity`: below this zoom, M(z) is the true maximum at this zoom.
    /// `nil` (the default): 0. Ignored with ``maximumIntensity``.
    public var minimumZoomIntensity: Int?
    /// Google's `maximumZoomIntensity`: above this zoom, M(z) is the true maximum at this zoom.
    /// `nil` (the default): 22. Equal to ``minimumZoomIntensity``: one maximum for all zooms.
    public var maximumZoomIntensity: Int?
    /// The kernel's radius in ground metres, converted per zoom (see `GroundRadius`), or `nil`
    /// (the default) for ``radius`` in points. Set, it wins over ``radius``.
    public var radiusMeters: Double? = nil
    /// The latitude at which ``radiusMeters`` are measured, in degrees, or `nil` (the default)
    /// for the middle of the data's latitudes.
    public var radiusLatitude: Double? = nil
    /// What a pixel shows: the kernel-weighted sum of the weights (the default) or the
    /// kernel-weighted mean of the points' values (see ``Aggregate``).
    public var aggregate: Aggregate = .sum
    /// With ``Aggregate/mean``: pixels whose density Σ wᵢ·K is below this stay clear. Default 0
    /// (every pixel within reach of a point of positive weight).
    public var minimumDensity: Double = 0
    /// With ``Aggregate/mean``: the values at the ends of the colour ramp, or `nil` (the
    /// default) for the smallest and largest value of the data.
    public var valueRange: ClosedRange<Double>? = nil
    /// Normalise by the P-th percentile of the non-zero pixel intensities of the whole zoom
    /// (0 < P ≤ 100; see `IntensityPercentile`) instead of the maximum, so one outlier does not
    /// wash out the map; `nil` (the default): the maximum. Ignored with ``maximumIntensity``.
    public var maximumPercentile: Double?

    /// Creates settings; every argument has Google's default.
    public init(
        radius: Int = 20, gradient: Gradient = .default, opacity: Double = 0.7, maximumIntensity: Double? = nil,
        colorScale: ColorScale = .linear, minimumZoomIntensity: Int? = nil, maximumZoomIntensity: Int? = nil,
        maximumPercentile: Double? = nil
    ) {
        self.radius = radius
        self.gradient = gradient
        self.opacity = opacity
        self.maximumIntensity = maximumIntensity
        self.colorScale = colorScale
        self.minimumZoomIntensity = minimumZoomIntensity
        self.maximumZoomIntensity = maximumZoomIntensity
        self.maximumPercentile = maximumPercentile
    }

    /// The zoom whose true maximum is M(`zoom`): `zoom` clamped to
    /// ``minimumZoomIntensity``...``maximumZoomIntensity``. Between them every zoom has its own
    /// exact maximum (nothing is interpolated, as in Google's Android utility); beyond them the
    /// end zoom's maximum holds.
    package func normalizationZoom(_ zoom: Int) -> Int {
        var clamped = zoom
        if let low = minimumZoomIntensity { clamped = max(clamped, low) }
        if let high = maximumZoomIntensity { clamped = min(clamped, high) }
        return clamped
    }

    /// Google's default settings.
    public static let `default` = HeatmapSettings()

    /// The settings of the `heatmap` command and server: Google's, with the colour map of
    /// ``Gradient/paletteDefault`` (160 entries), so that every tile is a palette PNG.
    public static let paletteDefault = HeatmapSettings(gradient: .paletteDefault)

    /// The allowed radii in points.
    public static let radiusRange = 10...50

    /// Checks every value.
    ///
    /// - Throws: ``HeatmapError/invalidRadius(_:)``, ``HeatmapError/invalidOpacity(_:)`` or
    ///   ``HeatmapError/invalidMaximumIntensity(_:)`` naming the value, or
    ///   ``HeatmapError/invalidZoomIntensity(_:)`` for zooms outside 0...22 or in the wrong order.
    public func validate() throws(HeatmapError) {
        guard Self.radiusRange.contains(radius) else { throw .invalidRadius(radius) }
        guard opacity.isFinite, (0...1).contains(opacity) else { throw .invalidOpacity(opacity) }
        if let m = maximumIntensity, !(m.isFinite && m > 0) { throw .invalidMaximumIntensity(m) }
        if let p = maximumPercentile, !IntensityPercentile.isValid(p) { throw .invalidPercentile(p) }
        let zooms = 0...WebMercator.maximumZoom
        for (name, zoom) in [
            ("minimumZoomIntensity", minimumZoomIntensity), ("maximumZoomIntensity", maximumZoomIntensity),
        ] {
            if let zoom, !zooms.contains(zoom) { throw .invalidZoomIntensity("\(name) \(zoom) is outside 0...22") }
        }
        if let low = minimumZoomIntensity, let high = maximumZoomIntensity, low > high {
            throw .invalidZoomIntensity("minimumZoomIntensity \(low) is above maximumZoomIntensity \(high)")
        }
        try validateRadiusAndMean()
    }
}

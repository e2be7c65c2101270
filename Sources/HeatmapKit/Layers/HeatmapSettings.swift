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

    /// Creates settings; every argument has Google's default.
    public init(radius: Int = 20, gradient: Gradient = .default, opacity: Double = 0.7, maximumIntensity: Double? = nil)
    {
        self.radius = radius
        self.gradient = gradient
        self.opacity = opacity
        self.maximumIntensity = maximumIntensity
    }

    /// Google's default settings.
    public static let `default` = HeatmapSettings()

    /// The allowed radii in points.
    public static let radiusRange = 10...50

    /// Checks every value.
    ///
    /// - Throws: ``HeatmapError/invalidRadius(_:)``, ``HeatmapError/invalidOpacity(_:)`` or
    ///   ``HeatmapError/invalidMaximumIntensity(_:)`` naming the value.
    public func validate() throws(HeatmapError) {
        guard Self.radiusRange.contains(radius) else { throw .invalidRadius(radius) }
        guard opacity.isFinite, (0...1).contains(opacity) else { throw .invalidOpacity(opacity) }
        if let m = maximumIntensity, !(m.isFinite && m > 0) { throw .invalidMaximumIntensity(m) }
    }
}

import HeatmapKit

/// The colour and normalisation options every drawing command shares: `--gradient`,
/// `--color-map-size`, `--color-scale`, `--min-zoom-intensity` and `--max-zoom-intensity`.
enum AppearanceArguments {
    /// The option names, each taking a value.
    static let valued: Set<String> = [
        "gradient", "color-map-size", "color-scale", "min-zoom-intensity", "max-zoom-intensity", "max-percentile",
    ]

    /// The lines of `--help` that explain them.
    static let help = """
          --gradient G       a preset (\(Gradient.presetNames.joined(separator: ", ")))
                             or COLOUR:STOP,... such as 0000ff:0.2,ff0000:1 (default: default)
          --color-map-size N entries of the colour map, 2...1048576 (default 255, so that every
                             tile is a palette PNG; the library's is Google's 1000)
          --color-scale S    linear (default), sqrt or log: how I/M picks a colour
          --min-zoom-intensity Z, --max-zoom-intensity Z
                             below/above these zooms (0...22) M(z) is that zoom's maximum;
                             equal: one maximum for all zooms
          --max-percentile P normalise by the P-th percentile (0 < P <= 100) of the zoom's
                             non-zero pixels instead of the maximum (--max-intensity wins)
        """

    /// Applies the options given to `settings` (the gradient replaced, or resampled to a new
    /// `--color-map-size`); values are checked by ``HeatmapSettings/validate()`` afterwards.
    ///
    /// - Throws: ``CommandError`` naming the option and what it takes.
    static func apply(_ list: ArgumentList, to settings: inout HeatmapSettings) throws(CommandError) {
        let size = try list.integer("color-map-size")
        do {
            if let text = list.text("gradient") {
                settings.gradient = try Gradient.parse(text, colorMapSize: size ?? Gradient.paletteColorMapSize)
            } else if let size {
                settings.gradient = try Gradient(
                    colors: settings.gradient.colors, startPoints: settings.gradient.startPoints, colorMapSize: size)
            }
        } catch {
            throw .usage("--gradient: \(error.description)")
        }
        if let text = list.text("color-scale") {
            guard let scale = ColorScale(rawValue: text) else {
                throw .usage("--color-scale is linear, sqrt or log, got \"\(text)\"")
            }
            settings.colorScale = scale
        }
        if let zoom = try list.integer("min-zoom-intensity") { settings.minimumZoomIntensity = zoom }
        if let zoom = try list.integer("max-zoom-intensity") { settings.maximumZoomIntensity = zoom }
        if let p = try list.number("max-percentile") {
            guard IntensityPercentile.isValid(p) else {
                throw .usage("--max-percentile is a number above 0 and at most 100, got \(p)")
            }
            settings.maximumPercentile = p
        }
    }
}

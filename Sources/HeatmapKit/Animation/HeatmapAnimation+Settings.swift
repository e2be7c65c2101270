import HeatmapCore

extension HeatmapAnimation {
    /// The settings frames are drawn with: `settings`, a colour map of 254 or 255 entries (which
    /// fits a still tile's palette but not with the label's two colours) cut to
    /// ``paletteColorMapSize`` (253), so that with transparent black and the label's two colours
    /// every frame fits one shared palette. Any other size is kept: at most 253 entries (the
    /// command's and server's default ``Gradient/paletteColorMapSize`` among them) already fit,
    /// and over 255 the frames are RGBA.
    package static func frameSettings(_ settings: HeatmapSettings) -> HeatmapSettings {
        var frames = settings
        let gradient = settings.gradient
        if (paletteColorMapSize + 1)...255 ~= gradient.colorMapSize,
            let cut = try? Gradient(
                colors: gradient.colors, startPoints: gradient.startPoints, colorMapSize: paletteColorMapSize)
        {
            frames.gradient = cut
        }
        return frames
    }

    /// An animation of `viewport` over `plan`, drawn with `settings` (see ``frameSettings(_:)``):
    /// a palette animation of the settings' colour map, or RGBA `overBase` map tiles.
    package init(plan: FramePlan, viewport: Viewport, settings: HeatmapSettings, overBase: Bool) {
        let colorMap = ColorMap(gradient: settings.gradient, opacity: settings.opacity, scale: settings.colorScale)
        self.init(plan: plan, viewport: viewport, colorMap: overBase ? nil : colorMap)
    }
}

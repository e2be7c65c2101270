import HeatmapKit

/// The drawing options `tile`, `image`, `render` and `serve` share: `--radius`, `--opacity`,
/// `--max-intensity`, the colour options (``AppearanceArguments``) and the kernel's
/// (``KernelArguments``).
enum DrawingArguments {
    /// Applies the options given to `settings`, keeping its values where none is given; values
    /// are checked by ``HeatmapSettings/validate()`` afterwards.
    ///
    /// - Throws: ``CommandError`` naming the option and what it takes.
    static func apply(_ list: ArgumentList, to settings: inout HeatmapSettings) throws(CommandError) {
        settings.radius = try list.integer("radius") ?? settings.radius
        settings.opacity = try list.number("opacity") ?? settings.opacity
        if let maximum = try list.number("max-intensity") { settings.maximumIntensity = maximum }
        try AppearanceArguments.apply(list, to: &settings)
        try KernelArguments.apply(list, to: &settings)
    }
}

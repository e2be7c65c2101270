extension Gradient {
    /// The names ``preset(named:colorMapSize:)`` knows, in the order a menu lists them: Google's
    /// default, the perceptual ramps (cividis is the one safe for colour-blind readers), then
    /// three older ramps of the server.
    public static let presetNames = [
        "default", "viridis", "inferno", "magma", "turbo", "cividis", "fire", "ice", "classic",
    ]

    /// The first start point of a perceptual ramp: below it the ramp's first colour fades in from
    /// transparent, as Google's default does below 0.2, so the kernel's faint edge stays clear.
    package static let presetFadeIn = 0.05

    /// A preset gradient by name; `nil` if the name is not in ``presetNames``.
    ///
    /// `default` is ``Gradient/default``. `viridis`, `inferno`, `magma`, `turbo` and `cividis`
    /// are matplotlib's tables sampled at 33 evenly spaced entries, placed evenly on
    /// ``presetFadeIn``...1. The colour map of any preset has `colorMapSize` entries.
    ///
    /// - Parameter colorMapSize: entries of the colour map, 2...``maximumColorMapSize``; `nil`
    ///   (the default) for 1000, Google's. A size outside the range gives `nil`.
    public static func preset(named name: String, colorMapSize: Int? = nil) -> Gradient? {
        let size = colorMapSize ?? 1000
        guard (2...maximumColorMapSize).contains(size) else { return nil }
        switch name {
        case "default":
            return try? Gradient(colors: Gradient.default.colors, startPoints: [0.2, 1], colorMapSize: size)
        case "viridis": return ramp(GradientPresetTables.viridis, size)
        case "inferno": return ramp(GradientPresetTables.inferno, size)
        case "magma": return ramp(GradientPresetTables.magma, size)
        case "turbo": return ramp(GradientPresetTables.turbo, size)
        case "cividis": return ramp(GradientPresetTables.cividis, size)
        case "fire": return stops([(0x7A0403, 0.15), (0xFF6A00, 0.45), (0xFFD000, 0.75), (0xFFFFE0, 1)], size)
        case "ice": return stops([(0x08306B, 0.1), (0x2171B5, 0.4), (0x6BAED6, 0.7), (0xF7FBFF, 1)], size)
        case "classic":
            return stops([(0x0000FF, 0.4), (0x00FFFF, 0.6), (0x00FF00, 0.7), (0xFFFF00, 0.8), (0xFF0000, 1)], size)
        default: return nil
        }
    }

    private static func ramp(_ table: [UInt32], _ size: Int) -> Gradient? {
        let last = Double(table.count - 1)
        return stops(
            table.enumerated().map { ($1, presetFadeIn + (1 - presetFadeIn) * Double($0) / last) }, size)
    }

    private static func stops(_ stops: [(UInt32, Double)], _ size: Int) -> Gradient? {
        let colors = stops.map { rgb, _ in
            RGBAColor(
                red: UInt8(truncatingIfNeeded: rgb >> 16), green: UInt8(truncatingIfNeeded: rgb >> 8),
                blue: UInt8(truncatingIfNeeded: rgb))
        }
        return try? Gradient(colors: colors, startPoints: stops.map(\.1), colorMapSize: size)
    }
}

extension Gradient {
    /// The most colour stops ``parse(_:colorMapSize:)`` takes.
    package static let maximumParsedStops = 16

    /// A preset name (``presetNames``) or colours with stops, `0000ff:0.2,ff0000:1` (`#`
    /// optional; 3, 6 or 8 hex digits; at most ``maximumParsedStops``): what `--gradient` and
    /// `gradient=` take.
    ///
    /// - Parameter colorMapSize: entries of the colour map; `nil` for 1000 with a preset and
    ///   256 with stops.
    /// - Throws: ``HeatmapError/invalidGradient(_:)`` saying what is wrong and what is allowed.
    public static func parse(_ text: String, colorMapSize: Int? = nil) throws(HeatmapError) -> Gradient {
        if let size = colorMapSize, !(2...maximumColorMapSize).contains(size) {
            throw .invalidGradient("colorMapSize \(size) is outside 2...\(maximumColorMapSize)")
        }
        if let preset = preset(named: text, colorMapSize: colorMapSize) { return preset }
        guard text.contains(":") else {
            throw .invalidGradient(
                "\"\(text)\" is neither a preset (\(presetNames.joined(separator: ", "))) nor COLOUR:STOP,…")
        }
        var colors: [RGBAColor] = []
        var stops: [Double] = []
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= maximumParsedStops else {
            throw .invalidGradient("it has \(parts.count) stops; at most \(maximumParsedStops)")
        }
        for part in parts {
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count == 2, let color = RGBAColor(hex: String(pieces[0])), let stop = Double(pieces[1]) else {
                throw .invalidGradient("stop \"\(part)\" is not COLOUR:STOP like ff0000:1")
            }
            colors.append(color)
            stops.append(stop)
        }
        return try Gradient(colors: colors, startPoints: stops, colorMapSize: colorMapSize ?? 256)
    }
}

import HeatmapKit

/// Named gradients for `gradient=NAME`, and the `RRGGBB[AA]:STOP,…` form for custom ones.
public enum GradientPresets {
    /// The preset names, in the order the map page lists them.
    public static let names = ["default", "fire", "ice", "viridis", "classic"]

    /// The gradient of a preset name; `nil` if unknown.
    public static func named(_ name: String) -> Gradient? {
        switch name {
        case "default": return .default
        case "fire": return make(["#7a0403:0.15", "#ff6a00:0.45", "#ffd000:0.75", "#ffffe0:1"])
        case "ice": return make(["#08306b:0.1", "#2171b5:0.4", "#6baed6:0.7", "#f7fbff:1"])
        case "viridis": return make(["#440154:0.05", "#3b528b:0.3", "#21918c:0.55", "#5ec962:0.8", "#fde725:1"])
        case "classic": return make(["#0000ff:0.4", "#00ffff:0.6", "#00ff00:0.7", "#ffff00:0.8", "#ff0000:1"])
        default: return nil
        }
    }

    private static func make(_ stops: [String]) -> Gradient? {
        try? parseStops(stops.joined(separator: ","))
    }

    /// A preset name, or colours with stops: `0000ff:0.2,ff0000:1` (`#` optional, 3, 6 or 8 hex digits).
    ///
    /// - Throws: ``OverrideError`` saying what is wrong.
    public static func parse(_ text: String) throws(OverrideError) -> Gradient {
        if let preset = named(text) { return preset }
        guard text.contains(":") else {
            throw OverrideError(
                "gradient \"\(text)\" is neither a preset (\(names.joined(separator: ", "))) nor colour:stop,…")
        }
        return try parseStops(text)
    }

    static func parseStops(_ text: String) throws(OverrideError) -> Gradient {
        var colors: [RGBAColor] = []
        var stops: [Double] = []
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= 16 else { throw OverrideError("gradient has \(parts.count) stops; at most 16") }
        for part in parts {
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            guard pieces.count == 2, let color = RGBAColor(hex: String(pieces[0])), let stop = Double(pieces[1]) else {
                throw OverrideError("gradient stop \"\(part)\" is not COLOUR:STOP like ff0000:1")
            }
            colors.append(color)
            stops.append(stop)
        }
        do {
            return try Gradient(colors: colors, startPoints: stops, colorMapSize: 256)
        } catch {
            throw OverrideError(error.description)
        }
    }
}

/// A query parameter or configuration value that cannot be used, said in words.
public struct OverrideError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

import HeatmapKit

/// `gradient=NAME` and `gradient=RRGGBB[AA]:STOP,…`: the library's presets and parser
/// (``Gradient/preset(named:colorMapSize:)``, ``Gradient/parse(_:colorMapSize:)``) with the
/// server's error type.
package enum GradientPresets {
    /// The preset names, in the order the map page lists them: ``Gradient/presetNames``.
    package static let names = Gradient.presetNames

    /// The gradient of a preset name with the server's 160 entries (``Gradient/paletteColorMapSize``);
    /// `nil` if unknown.
    package static func named(_ name: String) -> Gradient? {
        Gradient.preset(named: name, colorMapSize: Gradient.paletteColorMapSize)
    }

    /// A preset name, or colours with stops: `0000ff:0.2,ff0000:1` (`#` optional, 3, 6 or 8 hex digits).
    ///
    /// - Parameter colorMapSize: entries of the colour map; `nil` for the server's 160
    ///   (``Gradient/paletteColorMapSize``: every tile a palette PNG).
    /// - Throws: ``OverrideError`` saying what is wrong.
    package static func parse(_ text: String, colorMapSize: Int? = nil) throws(OverrideError) -> Gradient {
        do {
            return try Gradient.parse(text, colorMapSize: colorMapSize ?? Gradient.paletteColorMapSize)
        } catch {
            throw OverrideError(error.description)
        }
    }
}

/// A query parameter or configuration value that cannot be used, said in words.
package struct OverrideError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    package var description: String

    /// Creates an error.
    package init(_ description: String) { self.description = description }
}

import HeatmapCore

/// The heatmap's settings, one row each: the table that the query parser, the configuration
/// reader, the command's options and help, the canonical cache keys and the map page's controls
/// are all made from (see ``SettingRow``). A new setting is one row here: its name, its parser
/// with the range and message, what it changes in ``HeatmapSettings``, and its help.
///
/// Rows apply in this order, so `color-map-size` (after `gradient`) resamples the gradient given.
package enum SettingsSchema {
    /// The rows, in the order they apply and the canonical query lists them.
    package static let rows: [SettingRow] = drawing + kernel + filters

    /// The row of each spelling (names and aliases), and its index in ``rows``.
    package static let index: [String: Int] = {
        var index: [String: Int] = [:]
        for (i, row) in rows.enumerated() {
            for name in [row.name] + row.aliases { index[name] = i }
        }
        return index
    }()

    /// The row of each configuration key (names and aliases in camelCase, and the names as
    /// they are), and its index.
    package static let configIndex: [String: Int] = {
        var index: [String: Int] = [:]
        for (i, row) in rows.enumerated() {
            for key in [row.configKey, row.name] + row.configAliases { index[key] = i }
        }
        return index
    }()

    /// Every spelling a command takes as an option with a value (without `--`).
    package static var flagNames: Set<String> { Set(index.keys) }

    static let drawing: [SettingRow] = [
        SettingRow(
            "radius", placeholder: "N", help: "the kernel's radius in points, 10...50 (default 20)",
            control: .slider(min: 10, max: 50, step: 1)
        ) { (text) throws(SettingError) in
            guard let r = Int(text), HeatmapSettings.radiusRange.contains(r) else {
                throw SettingError("radius \"\(text)\" is not a whole number in 10...50")
            }
            return SettingValue(String(r)) { $0.radius = r }
        },
        SettingRow(
            "opacity", placeholder: "F", help: "0...1 (default 0.7)", control: .slider(min: 0, max: 1, step: 0.05)
        ) { (text) throws(SettingError) in
            guard let o = Double(text), o.isFinite, (0...1).contains(o) else {
                throw SettingError("opacity \"\(text)\" is not a number in 0...1")
            }
            return SettingValue("\(o)") { $0.opacity = o }
        },
        SettingRow(
            "gradient", placeholder: "G",
            help: "a preset (\(Gradient.presetNames.joined(separator: ", ")))\n"
                + "or COLOUR:STOP,... such as 0000ff:0.2,ff0000:1 (default: default)",
            control: .gradient
        ) { (text) throws(SettingError) in
            let gradient: Gradient
            do throws(HeatmapError) {
                // The command's and server's 160 entries: every tile a palette PNG.
                gradient = try Gradient.parse(text, colorMapSize: Gradient.paletteColorMapSize)
            } catch {
                throw SettingError("gradient: \(error.description)")
            }
            return SettingValue(text) { $0.gradient = gradient }
        },
        SettingRow(
            "color-map-size", placeholder: "N",
            help: "entries of the colour map, 2...\(Gradient.maximumColorMapSize) (default 160, so that every\n"
                + "tile is a palette PNG; the library's is Google's 1000)"
        ) { (text) throws(SettingError) in
            guard let n = Int(text), (2...Gradient.maximumColorMapSize).contains(n) else {
                throw SettingError(
                    "color-map-size \"\(text)\" is not a whole number in 2...\(Gradient.maximumColorMapSize)")
            }
            return SettingValue(String(n)) { settings in
                let g = settings.gradient
                if g.colorMapSize != n,
                    let resized = try? Gradient(colors: g.colors, startPoints: g.startPoints, colorMapSize: n)
                {
                    settings.gradient = resized
                }
            }
        },
        SettingRow(
            "color-scale", placeholder: "S", help: "linear (default), sqrt or log: how I/M picks a colour",
            control: .choice(["", "linear", "sqrt", "log"], unset: "layer's"), label: "scale"
        ) { (text) throws(SettingError) in
            guard let scale = ColorScale(rawValue: text) else {
                throw SettingError("color-scale \"\(text)\" is not linear, sqrt or log")
            }
            return SettingValue(scale.rawValue) { $0.colorScale = scale }
        },
        SettingRow(
            "max-intensity", aliases: ["max"], placeholder: "M",
            help: "a fixed normalisation value instead of the zoom's true maximum (auto: the maximum)"
        ) { (text) throws(SettingError) in
            if text == "auto" { return SettingValue("auto") { $0.maximumIntensity = nil } }
            guard let m = Double(text), m.isFinite, m > 0 else {
                throw SettingError("max-intensity \"\(text)\" is not a number > 0 or auto")
            }
            return SettingValue("\(m)") { $0.maximumIntensity = m }
        },
        zoomRow("min-zoom-intensity", help: "below this zoom (0...22) M(z) is that zoom's maximum") {
            $0.minimumZoomIntensity = $1
        },
        zoomRow("max-zoom-intensity", help: "above this zoom (0...22) M(z) is that zoom's maximum; equal: one M") {
            $0.maximumZoomIntensity = $1
        },
        SettingRow(
            "max-percentile", placeholder: "P",
            help: "normalise by the P-th percentile (0 < P <= 100, in steps of 0.1) of the zoom's\n"
                + "non-zero pixels instead of the maximum (--max-intensity wins)",
            control: .number(min: 0, max: 100, step: 0.5, placeholder: "max"), label: "percentile"
        ) { (text) throws(SettingError) in
            if text == "auto" { return SettingValue("auto") { $0.maximumPercentile = nil } }
            guard let p = Double(text), IntensityPercentile.isValid(p) else {
                throw SettingError("max-percentile \"\(text)\" is not a number above 0 and at most 100, or auto")
            }
            let rounded = roundedPercentile(p)
            return SettingValue("\(rounded)") { $0.maximumPercentile = rounded }
        },
    ]

    static let kernel: [SettingRow] = [
        SettingRow(
            "radius-meters", placeholder: "M",
            help: "the radius in ground metres instead of points, converted per zoom at\n"
                + "--radius-latitude (default: the middle of the data's latitudes);\n"
                + "at least 1 pixel, at most 128 points (off: the radius in points)",
            control: .number(min: 0, max: .infinity, step: 100, placeholder: "off"), label: "or metres"
        ) { (text) throws(SettingError) in
            if text == "off" { return SettingValue("off") { $0.radiusMeters = nil } }
            guard let m = Double(text), m.isFinite, m > 0 else {
                throw SettingError("radius-meters \"\(text)\" is not a number of metres > 0 or off")
            }
            return SettingValue("\(m)") { $0.radiusMeters = m }
        },
        SettingRow(
            "radius-latitude", placeholder: "LAT",
            help: "the latitude the metres are measured at, -90...90 (auto: the data's middle)"
        ) { (text) throws(SettingError) in
            if text == "auto" { return SettingValue("auto") { $0.radiusLatitude = nil } }
            guard let l = Double(text), l.isFinite, (-90...90).contains(l) else {
                throw SettingError("radius-latitude \"\(text)\" is not a latitude in -90...90 or auto")
            }
            return SettingValue("\(l)") { $0.radiusLatitude = l }
        },
        SettingRow(
            "aggregate", placeholder: "A",
            help: "sum (default: the density) or mean: the kernel-weighted mean of\n"
                + "--value COL, coloured from the values' lowest to highest"
        ) { (text) throws(SettingError) in
            guard let a = Aggregate(rawValue: text) else {
                throw SettingError("aggregate \"\(text)\" is not sum or mean")
            }
            return SettingValue(a.rawValue) { $0.aggregate = a }
        },
        SettingRow(
            "min-density", placeholder: "D", help: "with mean: pixels whose density is below D stay clear (default 0)"
        ) { (text) throws(SettingError) in
            guard let d = Double(text), d.isFinite, d >= 0 else {
                throw SettingError("min-density \"\(text)\" is not a number ≥ 0")
            }
            return SettingValue("\(d)") { $0.minimumDensity = d }
        },
        SettingRow(
            "value-range", placeholder: "LO,HI",
            help: "with mean: the values at the ends of the ramp (default, auto: the data's)"
        ) { (text) throws(SettingError) in
            if text == "auto" { return SettingValue("auto") { $0.valueRange = nil } }
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard parts.count == 2, let low = parts[0], let high = parts[1], low.isFinite, high.isFinite, low <= high
            else { throw SettingError("value-range \"\(text)\" is not LO,HI with LO <= HI, or auto") }
            return SettingValue("\(low),\(high)") { $0.valueRange = low...high }
        },
    ]

    /// A zoom setting, 0...22 or `auto`.
    private static func zoomRow(
        _ name: String, help: String, apply: @escaping @Sendable (inout HeatmapSettings, Int?) -> Void
    ) -> SettingRow {
        SettingRow(name, placeholder: "Z", help: help + " (auto: none)") { (text) throws(SettingError) in
            if text == "auto" { return SettingValue("auto") { apply(&$0, nil) } }
            guard let zoom = Int(text), (0...WebMercator.maximumZoom).contains(zoom) else {
                throw SettingError("\(name) \"\(text)\" is not a zoom in 0...22 or auto")
            }
            return SettingValue(String(zoom)) { apply(&$0, zoom) }
        }
    }

    /// `max-percentile=` is kept in steps of 0.1 (at most 1000 distinct values, each a search).
    package static let percentileStep = 0.1

    /// `p` rounded to ``percentileStep``, and at least one step.
    package static func roundedPercentile(_ p: Double) -> Double {
        max(percentileStep, (p * 10).rounded() / 10)
    }
}

extension SettingsSchema {
    /// Whether `key` is an older spelling of a configuration key (kept, but not listed).
    package static func isAlias(configKey key: String) -> Bool {
        rows.contains { $0.configAliases.contains(key) }
    }
}

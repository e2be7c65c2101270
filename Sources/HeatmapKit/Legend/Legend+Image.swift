import HeatmapCore

extension Legend {
    /// The legend as an image, `256 · scale` × `40 · scale` pixels: the colour bar (each column
    /// the colour map entry at its place on the ramp, over white), a tick at every stop and the
    /// stop's value under it in a built-in 3 × 5 bitmap font (digits, `.`, `e`, `-`, `+`).
    public func image() -> RGBAImage {
        let s = max(1, min(scale, 3))
        let width = 256 * s
        let height = 40 * s
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        func set(_ x: Int, _ y: Int, _ c: (UInt8, UInt8, UInt8)) {
            guard (0..<width).contains(x), (0..<height).contains(y) else { return }
            let i = 4 * (y * width + x)
            (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (c.0, c.1, c.2, 255)
        }
        let grey: (UInt8, UInt8, UInt8) = (128, 128, 128)
        let ink: (UInt8, UInt8, UInt8) = (32, 32, 32)
        for x in 0..<width {
            set(x, 0, grey)
            set(x, height - 1, grey)
        }
        for y in 0..<height {
            set(0, y, grey)
            set(width - 1, y, grey)
        }
        // The bar.
        let map = ColorMap(gradient: gradient, opacity: opacity)
        let left = 12 * s
        let right = width - 12 * s
        let top = 5 * s
        let bottom = 19 * s
        for x in left..<right {
            let fraction = Double(x - left) / Double(max(1, right - left - 1))
            let e = min(map.count - 1, Int((fraction * Double(map.count - 1)).rounded()))
            let a = Double(map.entries[4 * e + 3]) / 255
            let c = (0..<3).map { UInt8((Double(map.entries[4 * e + $0]) * a + 255 * (1 - a)).rounded()) }
            for y in top..<bottom { set(x, y, (c[0], c[1], c[2])) }
        }
        // Ticks and labels.
        let glyph = s + 1
        for stop in stops {
            let x = left + Int((stop.fraction * Double(right - left - 1)).rounded())
            for y in (bottom)..<(bottom + 3 * s) { set(x, y, ink) }
            let text = LegendLabel.text(stop.value)
            let textWidth = text.utf8.count * 4 * glyph - glyph
            let start = min(max(x - textWidth / 2, 4 * s), width - 4 * s - textWidth)
            LegendLabel.draw(text, x: start, y: bottom + 5 * s, pixel: glyph) { px, py in set(px, py, ink) }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
            ?? RGBAImage(transparentWidth: width, height: height)
    }
}

/// The numbers of a legend: short text, and a 3 × 5 bitmap font to draw it without a font file.
package enum LegendLabel {
    /// A value in at most 3 significant digits: `0`, `0.25`, `12.5`, `3400`, else with an
    /// exponent, `1.2e-5`, `6.1e+7`.
    public static func text(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "-" : (value > 0 ? "9e+99" : "-9e+99") }
        if value == 0 { return "0" }
        let magnitude = abs(value)
        if magnitude >= 0.01 && magnitude < 10_000 {
            let digits = max(0, 2 - Int(log10Floor(magnitude)))
            return trimmed(fixed(value, decimals: digits))
        }
        var exponent = Int(log10Floor(magnitude))
        var mantissa = value / power10(exponent)
        if abs((mantissa * 10).rounded()) >= 100 {
            exponent += 1
            mantissa = value / power10(exponent)
        }
        return trimmed(fixed(mantissa, decimals: 1)) + "e" + (exponent < 0 ? "-" : "+") + String(abs(exponent))
    }

    /// ⌊log10(x)⌋ for x > 0, by counting (exact at powers of ten).
    static func log10Floor(_ x: Double) -> Double {
        var e = 0
        var v = x
        while v >= 10 {
            v /= 10
            e += 1
        }
        while v < 1 {
            v *= 10
            e -= 1
        }
        return Double(e)
    }

    static func power10(_ e: Int) -> Double {
        var p = 1.0
        for _ in 0..<abs(e) { p *= 10 }
        return e < 0 ? 1 / p : p
    }

    /// `value` rounded to `decimals` places, in plain digits.
    static func fixed(_ value: Double, decimals: Int) -> String {
        let factor = power10(decimals)
        let scaled = (abs(value) * factor).rounded()
        guard scaled < 1e15 else { return String(value) }
        let whole = Int(scaled)
        var text = String(whole / Int(factor))
        if decimals > 0 {
            let fraction = String(whole % Int(factor))
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return (value < 0 && whole != 0 ? "-" : "") + text
    }

    static func trimmed(_ text: String) -> String {
        guard text.contains(".") else { return text }
        var t = Substring(text)
        while t.hasSuffix("0") { t = t.dropLast() }
        if t.hasSuffix(".") { t = t.dropLast() }
        return String(t)
    }

    /// Rows of each glyph, 3 bits a row (bit 2 the left column), top row first.
    static let glyphs: [Character: [UInt8]] = [
        "0": [7, 5, 5, 5, 7], "1": [2, 6, 2, 2, 7], "2": [7, 1, 7, 4, 7], "3": [7, 1, 7, 1, 7],
        "4": [5, 5, 7, 1, 1], "5": [7, 4, 7, 1, 7], "6": [7, 4, 7, 5, 7], "7": [7, 1, 1, 2, 2],
        "8": [7, 5, 7, 5, 7], "9": [7, 5, 7, 1, 7], ".": [0, 0, 0, 0, 2], "-": [0, 0, 7, 0, 0],
        "+": [0, 2, 7, 2, 0], "e": [0, 7, 7, 4, 7],
    ]

    /// Draws `text` with its top left at `x`, `y`, each font pixel `pixel` × `pixel` image
    /// pixels, glyphs 4 font pixels apart; characters without a glyph are left blank.
    public static func draw(_ text: String, x: Int, y: Int, pixel: Int, plot: (Int, Int) -> Void) {
        for (i, character) in text.enumerated() {
            guard let rows = glyphs[character] else { continue }
            let left = x + i * 4 * pixel
            for (row, bits) in rows.enumerated() {
                for column in 0..<3 where bits & (4 >> UInt8(column)) != 0 {
                    for dy in 0..<pixel {
                        for dx in 0..<pixel { plot(left + column * pixel + dx, y + row * pixel + dy) }
                    }
                }
            }
        }
    }
}

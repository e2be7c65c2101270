/// Hue, saturation and value in 0...1, with alpha 0...1: the space Google's gradients blend in.
struct HSVColor {
    var hue: Double
    var saturation: Double
    var value: Double
    var alpha: Double

    init(_ c: RGBAColor) {
        let r = Double(c.red) / 255
        let g = Double(c.green) / 255
        let b = Double(c.blue) / 255
        let high = max(r, g, b)
        let delta = high - min(r, g, b)
        var h = 0.0
        if delta > 0 {
            if high == r {
                h = (g - b) / delta
            } else if high == g {
                h = (b - r) / delta + 2
            } else {
                h = (r - g) / delta + 4
            }
            h /= 6
            if h < 0 { h += 1 }
        }
        hue = h
        saturation = high > 0 ? delta / high : 0
        value = high
        alpha = Double(c.alpha) / 255
    }

    var rgba: RGBAColor {
        let h = (hue - hue.rounded(.down)) * 6
        let sector = Int(h.rounded(.down)) % 6
        let f = h - h.rounded(.down)
        let v = value
        let p = v * (1 - saturation)
        let q = v * (1 - saturation * f)
        let t = v * (1 - saturation * (1 - f))
        let (r, g, b): (Double, Double, Double)
        switch sector {
        case 0: (r, g, b) = (v, t, p)
        case 1: (r, g, b) = (q, v, p)
        case 2: (r, g, b) = (p, v, t)
        case 3: (r, g, b) = (p, q, v)
        case 4: (r, g, b) = (t, p, v)
        default: (r, g, b) = (v, p, q)
        }
        return RGBAColor(
            red: HSVColor.byte(r), green: HSVColor.byte(g), blue: HSVColor.byte(b), alpha: HSVColor.byte(alpha))
    }

    static func byte(_ unit: Double) -> UInt8 { UInt8(min(max(unit * 255, 0), 255).rounded()) }

    /// The colour a fraction `ratio` of the way from `a` to `b`, hue the short way round.
    static func interpolate(from a: RGBAColor, to b: RGBAColor, ratio: Double) -> RGBAColor {
        let x = HSVColor(a)
        let y = HSVColor(b)
        var fromHue = x.hue
        var toHue = y.hue
        if toHue - fromHue > 0.5 { fromHue += 1 } else if fromHue - toHue > 0.5 { toHue += 1 }
        var hue = fromHue + (toHue - fromHue) * ratio
        hue -= hue.rounded(.down)
        let mixed = HSVColor(
            hue: hue, saturation: x.saturation + (y.saturation - x.saturation) * ratio,
            value: x.value + (y.value - x.value) * ratio, alpha: x.alpha + (y.alpha - x.alpha) * ratio)
        return mixed.rgba
    }

    init(hue: Double, saturation: Double, value: Double, alpha: Double) {
        self.hue = hue
        self.saturation = saturation
        self.value = value
        self.alpha = alpha
    }
}

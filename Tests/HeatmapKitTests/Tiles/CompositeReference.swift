import HeatmapKit

/// The alpha composite computed independently of the library, for the stack tests: straight
/// alpha, each layer's alpha times its opacity, Porter-Duff "over" in doubles, rounded at the end.
enum CompositeReference {
    /// `image` scaled up by a whole `factor`, each pixel becoming a `factor` × `factor` block.
    static func upscaled(_ image: RGBAImage, by factor: Int) -> RGBAImage {
        guard factor > 1 else { return image }
        let side = image.width * factor
        var pixels = [UInt8](repeating: 0, count: side * side * 4)
        for y in 0..<side {
            for x in 0..<side {
                let source = ((y / factor) * image.width + x / factor) * 4
                for k in 0..<4 { pixels[(y * side + x) * 4 + k] = image.pixels[source + k] }
            }
        }
        return RGBAImage(width: side, height: side, pixels: pixels) ?? image
    }

    /// The layers, bottom first, drawn over one another: premultiplied colour and alpha over
    /// the layers, then straight colour, rounded half up.
    static func over(_ layers: [(image: RGBAImage, opacity: Double)], side: Int) -> [UInt8] {
        func rounded(_ v: Double) -> UInt8 { UInt8(min(255, max(0, (v + 0.5).rounded(.down)))) }
        var out = [UInt8](repeating: 0, count: side * side * 4)
        for p in 0..<(side * side) {
            var premultiplied = [0.0, 0.0, 0.0]
            var alpha = 0.0
            for layer in layers {
                let a = Double(layer.image.pixels[p * 4 + 3]) * (layer.opacity / 255)
                if a == 0 { continue }
                for k in 0..<3 {
                    premultiplied[k] = Double(layer.image.pixels[p * 4 + k]) * a + premultiplied[k] * (1 - a)
                }
                alpha = a + alpha * (1 - a)
            }
            let outAlpha = rounded(alpha * 255)
            if outAlpha == 0 { continue }
            for k in 0..<3 { out[p * 4 + k] = rounded(premultiplied[k] / alpha) }
            out[p * 4 + 3] = outAlpha
        }
        return out
    }

    /// The number of pixels that differ, and the first one.
    static func difference(_ a: [UInt8], _ b: [UInt8], side: Int) -> (count: Int, first: String?) {
        guard a.count == b.count else { return (-1, "sizes \(a.count) and \(b.count)") }
        var count = 0
        var first: String?
        for p in 0..<(a.count / 4) where a[p * 4..<p * 4 + 4] != b[p * 4..<p * 4 + 4] {
            count += 1
            if first == nil {
                first =
                    "pixel \(p % side),\(p / side): \(Array(a[p * 4..<p * 4 + 4])) vs \(Array(b[p * 4..<p * 4 + 4]))"
            }
        }
        return (count, first)
    }
}

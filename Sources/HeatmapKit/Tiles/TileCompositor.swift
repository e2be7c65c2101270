/// Draws layers' tiles over one another: straight (not premultiplied) 8-bit alpha in, each
/// layer's opacity applied, Porter-Duff "over" in double precision, rounded once at the end.
///
/// For a pixel, bottom layer first, with colour c (0...255) and alpha a = alpha × opacity / 255,
/// over the running premultiplied colour P and alpha A (both 0 at first): `P' = c·a + P(1 − a)`,
/// `A' = a + A(1 − a)`. The result is `⌊P/A + ½⌋` and `⌊255·A + ½⌋`; a pixel whose alpha rounds
/// to 0 is (0, 0, 0, 0). Images smaller than the target are scaled up by nearest
/// neighbour (target pixel i takes source pixel ⌊(2i + 1)·S / 2T⌋), so a 256 px tile under a
/// 512 px one becomes 2 × 2 blocks, never blurred.
enum TileCompositor {
    /// The largest tile side accepted, in pixels.
    static let maximumSide = 8192

    /// One layer's decoded tile and the opacity still to apply to it.
    struct Layer {
        var image: RGBAImage
        var opacity: Double
    }

    /// The image of a layer's PNG, checked to be `expected` pixels square.
    ///
    /// - Throws: ``TileLayerError/wrongImageSize(layer:expected:width:height:)`` or
    ///   ``TileLayerError/invalidImage(layer:reason:)``, naming `layer`.
    static func decode(_ png: [UInt8], layer: String, expected: Int) throws(TileLayerError) -> RGBAImage {
        guard let header = PNGHeader(png) else {
            throw .invalidImage(layer: layer, reason: "the bytes do not start with a PNG signature and IHDR")
        }
        guard header.width == expected, header.height == expected, expected <= maximumSide else {
            throw .wrongImageSize(layer: layer, expected: expected, width: header.width, height: header.height)
        }
        do {
            return try PNGDecoder.decode(png, maximumPixelCount: expected * expected)
        } catch {
            throw .invalidImage(layer: layer, reason: error.description)
        }
    }

    /// `image` scaled to `side` × `side` by nearest neighbour; the image itself when it is that size.
    static func resized(_ image: RGBAImage, to side: Int) -> RGBAImage {
        guard image.width != side || image.height != side, side > 0 else { return image }
        let (width, height) = (image.width, image.height)
        let columns = (0..<side).map { ((2 * $0 + 1) * width) / (2 * side) }
        var pixels = [UInt8](repeating: 0, count: side * side * 4)
        image.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                for row in 0..<side {
                    let sourceRow = ((2 * row + 1) * height) / (2 * side)
                    for (column, sourceColumn) in columns.enumerated() {
                        let from = (sourceRow * width + sourceColumn) * 4
                        let to = (row * side + column) * 4
                        for k in 0..<4 { target[to + k] = source[from + k] }
                    }
                }
            }
        }
        return RGBAImage(width: side, height: side, pixels: pixels) ?? RGBAImage(transparentWidth: side, height: side)
    }

    /// The layers (bottom first, each `side` pixels square) drawn over one another.
    static func composite(_ layers: [Layer], side: Int) -> RGBAImage {
        let count = side * side
        // Every pixel's premultiplied colour (0...255) and alpha (0...1) in doubles, one layer at
        // a time; one division and rounding at the end.
        var running = [Double](repeating: 0, count: count * 4)
        for layer in layers where layer.opacity > 0 && layer.image.pixels.count == count * 4 {
            let factor = layer.opacity / 255
            layer.image.pixels.withUnsafeBufferPointer { pixels in
                running.withUnsafeMutableBufferPointer { running in
                    for i in stride(from: 0, to: count &* 4, by: 4) {
                        let a = Double(pixels[i &+ 3]) * factor
                        guard a > 0 else { continue }
                        let keep = 1 - a
                        running[i] = Double(pixels[i]) * a + running[i] * keep
                        running[i &+ 1] = Double(pixels[i &+ 1]) * a + running[i &+ 1] * keep
                        running[i &+ 2] = Double(pixels[i &+ 2]) * a + running[i &+ 2] * keep
                        running[i &+ 3] = a + running[i &+ 3] * keep
                    }
                }
            }
        }
        var output = [UInt8](repeating: 0, count: count * 4)
        output.withUnsafeMutableBufferPointer { out in
            running.withUnsafeBufferPointer { running in
                for i in stride(from: 0, to: count &* 4, by: 4) {
                    let alpha = running[i &+ 3]
                    let byteAlpha = byte(alpha * 255)
                    guard byteAlpha > 0 else { continue }
                    out[i] = byte(running[i] / alpha)
                    out[i &+ 1] = byte(running[i &+ 1] / alpha)
                    out[i &+ 2] = byte(running[i &+ 2] / alpha)
                    out[i &+ 3] = byteAlpha
                }
            }
        }
        return RGBAImage(width: side, height: side, pixels: output) ?? RGBAImage(transparentWidth: side, height: side)
    }

    /// A value of 0...255 rounded to the nearest byte, halves up: ⌊v + 0.5⌋, clamped.
    @inline(__always) private static func byte(_ value: Double) -> UInt8 {
        let shifted = value + 0.5
        guard shifted >= 1 else { return 0 }  // also NaN
        return shifted >= 255 ? 255 : UInt8(truncatingIfNeeded: Int(shifted))
    }
}

/// Draws layers' tiles over one another: straight (not premultiplied) 8-bit alpha in, each
/// layer's opacity applied, Porter-Duff "over" in double precision, rounded once at the end.
///
/// For a pixel, bottom layer first, with colour c (0...255) and alpha a = alpha/255 × opacity:
/// `A' = a + A(1 − a)` and `C' = (c·a + C·A(1 − a)) / A'` (C' = 0 where A' = 0), starting from
/// transparent (C = A = 0); the result is `round(C)` and `round(255·A)`, and a pixel that ends
/// transparent is (0, 0, 0, 0). Images smaller than the target are scaled up by nearest
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
        var output = [UInt8](repeating: 0, count: count * 4)
        let sources = layers.filter { $0.opacity > 0 && $0.image.pixels.count == count * 4 }
        // Pixel by pixel, every layer in turn, in doubles; one rounding at the end.
        let images = sources.map { $0.image.pixels }
        let opacities = sources.map(\.opacity)
        output.withUnsafeMutableBufferPointer { out in
            for i in 0..<count {
                var red = 0.0
                var green = 0.0
                var blue = 0.0
                var alpha = 0.0
                for (index, pixels) in images.enumerated() {
                    let a = Double(pixels[i * 4 + 3]) / 255 * opacities[index]
                    guard a > 0 else { continue }
                    let below = alpha * (1 - a)
                    let newAlpha = a + below
                    red = (Double(pixels[i * 4]) * a + red * below) / newAlpha
                    green = (Double(pixels[i * 4 + 1]) * a + green * below) / newAlpha
                    blue = (Double(pixels[i * 4 + 2]) * a + blue * below) / newAlpha
                    alpha = newAlpha
                }
                let outAlpha = (alpha * 255).rounded()
                guard outAlpha > 0 else { continue }
                out[i * 4] = byte(red)
                out[i * 4 + 1] = byte(green)
                out[i * 4 + 2] = byte(blue)
                out[i * 4 + 3] = byte(outAlpha)
            }
        }
        return RGBAImage(width: side, height: side, pixels: output) ?? RGBAImage(transparentWidth: side, height: side)
    }

    /// A value of 0...255 rounded to the nearest byte (halves away from zero).
    @inline(__always) private static func byte(_ value: Double) -> UInt8 {
        UInt8(min(max(value.rounded(), 0), 255))
    }
}

/// A bitmap of 8-bit RGBA pixels, not premultiplied, rows from north to south.
///
/// The pixel at column `x` and row `y` starts at byte `(y * width + x) * 4` of ``pixels``
/// and holds red, green, blue and alpha in that order.
public struct RGBAImage: Sendable, Hashable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The pixels, `width * height * 4` bytes, row-major, north row first.
    public var pixels: [UInt8]

    /// Creates an image from its pixels.
    ///
    /// - Precondition: `pixels.count == width * height * 4`; the initialiser
    ///   returns `nil` otherwise, so that a bad size from input never traps.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width >= 0, height >= 0, pixels.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Creates a fully transparent image.
    public init(transparentWidth width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.pixels = [UInt8](repeating: 0, count: self.width * self.height * 4)
    }

    /// The red, green, blue and alpha bytes of the pixel at column `x` and row `y`.
    public subscript(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

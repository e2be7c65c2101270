/// A gradient sampled into a lookup table with opacity applied: what colours a tile.
public struct ColorMap: Sendable {
    /// `count * 4` bytes: red, green, blue, alpha of each entry, alpha already times opacity.
    public let entries: [UInt8]
    /// The number of entries: the gradient's `colorMapSize`.
    public var count: Int { entries.count / 4 }

    /// Samples `gradient` and multiplies every alpha by `opacity` (0...1), rounded.
    public init(gradient: Gradient, opacity: Double) {
        var entries = [UInt8](repeating: 0, count: gradient.colorMapSize * 4)
        let o = min(max(opacity.isNaN ? 0 : opacity, 0), 1)
        for i in 0..<gradient.colorMapSize {
            let c = gradient.color(atEntry: i)
            entries[4 * i] = c.red
            entries[4 * i + 1] = c.green
            entries[4 * i + 2] = c.blue
            entries[4 * i + 3] = UInt8((Double(c.alpha) * o).rounded())
        }
        self.entries = entries
    }

    /// Colours an intensity grid: a pixel of intensity I > 0 takes entry
    /// min(count − 1, ⌊I / maximum · (count − 1)⌋); a pixel of intensity 0 is transparent.
    ///
    /// - Parameter maximum: M, the normalisation value; a value ≤ 0 gives a transparent image.
    public func colorize(_ grid: IntensityGrid, maximum: Double) -> RGBAImage {
        var image = RGBAImage(transparentWidth: grid.width, height: grid.height)
        guard maximum > 0, maximum.isFinite else { return image }
        let factor = Double(count - 1) / maximum
        let last = count - 1
        grid.values.withUnsafeBufferPointer { values in
            entries.withUnsafeBufferPointer { table in
                image.pixels.withUnsafeMutableBufferPointer { out in
                    for i in 0..<values.count {
                        let v = values[i]
                        if v <= 0 { continue }
                        let entry = min(last, Int(Double(v) * factor)) * 4
                        out[4 * i] = table[entry]
                        out[4 * i + 1] = table[entry + 1]
                        out[4 * i + 2] = table[entry + 2]
                        out[4 * i + 3] = table[entry + 3]
                    }
                }
            }
        }
        return image
    }
}

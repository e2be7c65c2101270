import HeatmapCore

/// The colours of a palette PNG: at most 256 RGBA colours, each once, found by a small open
/// hash table (1,024 slots, so a probe rarely goes past the first).
///
/// A colour is a `UInt32` holding red, green, blue and alpha in memory order (the four bytes
/// of an RGBA pixel loaded as one little-endian word).
struct PNGPalette {
    /// The most colours a PNG palette holds.
    static let capacity = 256
    private static let slotCount = 1024

    /// The colours, in the order they were added: index `i` is palette entry `i`.
    private(set) var colors: [UInt32] = []
    /// Per slot: the colour's palette index + 1, 0 for an empty slot.
    private var slots = [UInt16](repeating: 0, count: slotCount)
    private var keys = [UInt32](repeating: 0, count: slotCount)

    /// An empty palette.
    init() { colors.reserveCapacity(Self.capacity) }

    /// The palette of `colors` as they are, duplicates and all (at most 256; not for lookups).
    init(colors: [UInt32]) {
        precondition(colors.count <= Self.capacity, "a PNG palette holds at most 256 colours")
        self.colors = colors
    }

    /// The number of colours.
    var count: Int { colors.count }

    /// The index of `color`, added if new; `nil` when it is new and the palette is full.
    ///
    /// - Complexity: O(1) expected.
    mutating func index(of color: UInt32) -> Int? {
        var slot = Int(truncatingIfNeeded: (color &* 0x9E37_79B1) >> 22)
        while true {
            let entry = slots[slot]
            if entry == 0 {
                guard colors.count < Self.capacity else { return nil }
                colors.append(color)
                slots[slot] = UInt16(colors.count)
                keys[slot] = color
                return colors.count - 1
            }
            if keys[slot] == color { return Int(entry) - 1 }
            slot = (slot + 1) & (Self.slotCount - 1)
        }
    }

    /// The PNG bit depth for palette indices: 1, 2, 4 or 8 bits a pixel, the fewest that index
    /// every colour.
    var bitDepth: Int {
        switch count {
        case ...2: 1
        case ...4: 2
        case ...16: 4
        default: 8
        }
    }

    /// The `PLTE` chunk's data: red, green, blue of each colour.
    var plteData: [UInt8] {
        colors.flatMap { color in
            [
                UInt8(truncatingIfNeeded: color), UInt8(truncatingIfNeeded: color >> 8),
                UInt8(truncatingIfNeeded: color >> 16),
            ]
        }
    }

    /// The `tRNS` chunk's data: the alpha of each colour up to the last that is not opaque
    /// (empty when every colour is opaque: no chunk is needed).
    var trnsData: [UInt8] {
        let alphas = colors.map { UInt8(truncatingIfNeeded: $0 >> 24) }
        guard let last = alphas.lastIndex(where: { $0 != 255 }) else { return [] }
        return Array(alphas[0...last])
    }

    /// The palette of `image` and each pixel's index in it (one byte a pixel, row-major), or
    /// `nil` when the image holds more than 256 colours. Fully transparent black, when the image
    /// has it, is index 0 (it zeroes filtered rows), the other colours follow in the order they
    /// first appear; a pixel equal to the one before it is not looked up again.
    ///
    /// - Complexity: O(pixels); it stops at the 257th colour.
    static func indexed(_ image: RGBAImage) -> (palette: PNGPalette, indices: [UInt8])? {
        guard image.width > 0, image.height > 0 else { return nil }
        switch indexed(image, transparentFirst: true) {
        case .fits(let palette, var indices, let sawTransparent):
            guard !sawTransparent else { return (palette, indices) }
            // No pixel is transparent black: its entry goes, and every index moves down one.
            indices.withUnsafeMutableBufferPointer { indices in
                for i in indices.indices { indices[i] &-= 1 }
            }
            return (PNGPalette(colors: Array(palette.colors.dropFirst())), indices)
        case .tooMany(let sawTransparent):
            // 256 other colours fill the palette without transparent black.
            guard !sawTransparent, case .fits(let palette, let indices, _) = indexed(image, transparentFirst: false)
            else { return nil }
            return (palette, indices)
        }
    }

    private enum Scan {
        /// The palette, the indices, and whether transparent black was among the pixels.
        case fits(PNGPalette, [UInt8], sawTransparent: Bool)
        /// Over 256 colours; whether transparent black was among the pixels read.
        case tooMany(sawTransparent: Bool)
    }

    /// ``indexed(_:)``, with index 0 kept for transparent black or not.
    private static func indexed(_ image: RGBAImage, transparentFirst: Bool) -> Scan {
        var palette = PNGPalette()
        let count = image.width * image.height
        var fits = true
        var sawTransparent = false
        let indices = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            image.pixels.withUnsafeBytes { raw in
                var previous = raw.loadUnaligned(as: UInt32.self).littleEndian
                sawTransparent = previous == 0
                if transparentFirst { _ = palette.index(of: 0) }
                guard let first = palette.index(of: previous) else {
                    fits = false
                    return
                }
                var previousIndex = UInt8(truncatingIfNeeded: first)
                for i in 0..<count {
                    let color = raw.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self).littleEndian
                    if color != previous {
                        sawTransparent = sawTransparent || color == 0
                        guard let index = palette.index(of: color) else {
                            fits = false
                            return
                        }
                        previous = color
                        previousIndex = UInt8(truncatingIfNeeded: index)
                    }
                    out[i] = previousIndex
                }
                initialized = count
            }
        }
        return fits ? .fits(palette, indices, sawTransparent: sawTransparent) : .tooMany(sawTransparent: sawTransparent)
    }
}

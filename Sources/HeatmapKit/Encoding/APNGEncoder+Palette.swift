import HeatmapCore

extension APNGEncoder.Colors {
    /// The colours of heatmap frames coloured with `colorMap` (its entries, and transparent
    /// black where the intensity is 0) and drawn over with `extra` colours (a label's ink and
    /// halo): ``palette(_:)`` of them when at most 256 are distinct, else ``rgba``.
    ///
    /// A 255-entry map (the palette PNG's default) with a label's two colours makes 258: RGBA.
    /// A map of at most 253 entries keeps such frames in a palette, under half the bytes.
    package static func heatmap(_ colorMap: ColorMap, adding extra: [RGBAColor] = []) -> Self {
        var colors = [RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)]
        var seen: Set<RGBAColor> = [colors[0]]
        let entries = stride(from: 0, to: colorMap.entries.count - 3, by: 4).map { i in
            RGBAColor(
                red: colorMap.entries[i], green: colorMap.entries[i + 1], blue: colorMap.entries[i + 2],
                alpha: colorMap.entries[i + 3])
        }
        for color in entries + extra where seen.insert(color).inserted {
            colors.append(color)
            guard colors.count <= 256 else { return .rgba }
        }
        return .palette(colors)
    }
}

extension APNGEncoder {
    /// One palette of at most 256 colours holding every pixel of every frame, or `nil` when
    /// the frames hold more colours than that. Transparent black comes first when a frame has
    /// it (its index 0 keeps empty rows zero); the other colours follow in the order they appear.
    ///
    /// - Complexity: O(pixels of all frames); it stops at the 257th colour.
    package static func sharedPalette(of frames: some Sequence<RGBAImage>) -> [RGBAColor]? {
        var palette = PNGPalette()
        _ = palette.index(of: 0)
        var sawTransparent = false
        for frame in frames {
            let fits = frame.pixels.withUnsafeBytes { raw -> Bool in
                var previous: UInt32? = nil
                for i in 0..<(raw.count / 4) {
                    let color = raw.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self).littleEndian
                    guard color != previous else { continue }
                    previous = color
                    if color == 0 { sawTransparent = true }
                    guard palette.index(of: color) != nil else { return false }
                }
                return true
            }
            guard fits else { return nil }
        }
        var colors = palette.colors
        if !sawTransparent { colors.removeFirst() }
        return colors.map(Self.color)
    }

    /// The palette of `colors` for lookups, each colour once, in their order.
    static func palette(_ colors: [RGBAColor]) -> PNGPalette {
        var palette = PNGPalette()
        for color in colors { _ = palette.index(of: word(color)) }
        return palette
    }

    /// Each pixel's index in `palette`, one byte a pixel, row-major.
    ///
    /// - Throws: ``PNGError`` of kind ``PNGError/Kind/invalidImage`` naming frame `number`, the
    ///   first pixel whose colour is not in the palette and that colour.
    static func indices(of image: RGBAImage, in palette: PNGPalette, frame number: Int) throws(PNGError) -> [UInt8] {
        var lookup = palette
        let count = image.width * image.height
        var missing: (pixel: Int, color: UInt32)? = nil
        let indices = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            image.pixels.withUnsafeBytes { raw in
                var previous: UInt32? = nil
                var previousIndex: UInt8 = 0
                for i in 0..<count {
                    let color = raw.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self).littleEndian
                    if color != previous {
                        let known = lookup.count
                        guard let index = lookup.index(of: color), lookup.count == known else {
                            missing = (i, color)
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
        if let missing {
            throw PNGError(
                .invalidImage,
                "frame \(number) has colour \(color(missing.color).hex) at pixel (\(missing.pixel % image.width), "
                    + "\(missing.pixel / image.width)), which is not in the animation's shared palette")
        }
        return indices
    }

    /// A palette word (red in the low byte) as a colour.
    static func color(_ word: UInt32) -> RGBAColor {
        RGBAColor(
            red: UInt8(truncatingIfNeeded: word), green: UInt8(truncatingIfNeeded: word >> 8),
            blue: UInt8(truncatingIfNeeded: word >> 16), alpha: UInt8(truncatingIfNeeded: word >> 24))
    }

    /// A colour as a palette word.
    static func word(_ color: RGBAColor) -> UInt32 {
        UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16 | UInt32(color.alpha) << 24
    }
}

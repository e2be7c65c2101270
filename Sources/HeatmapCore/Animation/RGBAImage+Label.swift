extension RGBAImage {
    /// A corner of an image.
    package enum Corner: Sendable, Hashable, CaseIterable {
        /// The top-left corner.
        case topLeft
        /// The top-right corner.
        case topRight
        /// The bottom-left corner.
        case bottomLeft
        /// The bottom-right corner.
        case bottomRight
    }

    /// Draws `text` in a corner in a built-in 5 × 7 pixel font (digits, `-`, `–`, `:`, `/`,
    /// `.`, space, `T`, `Z`, `U`, `C`; other characters are boxes), each font pixel `scale` ×
    /// `scale` image pixels, in `color` with a `halo` of `scale` pixels around every stroke, so
    /// it reads over light and dark maps alike. The text keeps `2 × scale` pixels from the
    /// edges, and what does not fit the image is cut off.
    ///
    /// The pixels written are exactly `color` and `halo` (no blending), so an animation of
    /// heatmap frames still fits one palette with two more colours.
    ///
    /// - Complexity: O(width of the text × its height × scale²).
    package mutating func drawLabel(
        _ text: String, corner: Corner = .bottomLeft, scale: Int = 1,
        color: RGBAColor = RGBAColor(red: 255, green: 255, blue: 255),
        halo: RGBAColor = RGBAColor(red: 0, green: 0, blue: 0)
    ) {
        let scale = Swift.max(1, Swift.min(scale, 64))
        let characters = Array(text)
        guard !characters.isEmpty, width > 0, height > 0 else { return }
        // The text's box, in font pixels, with one font pixel of halo around it.
        let columns = characters.count * BitmapFont.advance - 1 + 2
        let rows = BitmapFont.height + 2
        var ink = [Bool](repeating: false, count: columns * rows)
        for (i, character) in characters.enumerated() {
            for (y, mask) in BitmapFont.rows(character).enumerated() {
                for x in 0..<BitmapFont.width where mask & (1 << (BitmapFont.width - 1 - x)) != 0 {
                    ink[(y + 1) * columns + 1 + i * BitmapFont.advance + x] = true
                }
            }
        }
        let margin = scale  // The halo's own pixel sits at the box's edge: 2 × scale from the image's.
        let left = corner == .topLeft || corner == .bottomLeft ? margin : width - margin - columns * scale
        let top = corner == .topLeft || corner == .topRight ? margin : height - margin - rows * scale
        let inkColor = [color.red, color.green, color.blue, color.alpha]
        let haloColor = [halo.red, halo.green, halo.blue, halo.alpha]
        for row in 0..<(rows * scale) {
            let y = top + row
            guard y >= 0, y < height else { continue }
            for column in 0..<(columns * scale) {
                let x = left + column
                guard x >= 0, x < width else { continue }
                let fx = column / scale
                let fy = row / scale
                let paint: [UInt8]
                if ink[fy * columns + fx] {
                    paint = inkColor
                } else if Self.touchesInk(ink, columns: columns, rows: rows, x: column, y: row, scale: scale) {
                    paint = haloColor
                } else {
                    continue
                }
                let offset = (y * width + x) * 4
                pixels.replaceSubrange(offset..<(offset + 4), with: paint)
            }
        }
    }

    /// Whether an inked font pixel lies within `scale` image pixels of image pixel (`x`, `y`)
    /// of the label (in its own coordinates), counting diagonals.
    private static func touchesInk(_ ink: [Bool], columns: Int, rows: Int, x: Int, y: Int, scale: Int) -> Bool {
        let fx0 = Swift.max(0, (x - scale) / scale)
        let fx1 = Swift.min(columns - 1, (x + scale) / scale)
        let fy0 = Swift.max(0, (y - scale) / scale)
        let fy1 = Swift.min(rows - 1, (y + scale) / scale)
        for fy in fy0...fy1 {
            for fx in fx0...fx1 where ink[fy * columns + fx] { return true }
        }
        return false
    }
}

/// Which tiles a viewport needs, and how their pixels land in the image.
struct StaticImagePlan {
    /// A tile of the grid (x wrapped into the world).
    struct Tile: Hashable, Sendable {
        var x: Int
        var y: Int
    }

    let viewport: Viewport
    let left: Int
    let top: Int
    let side: Int
    let across: Int
    /// The tile columns (not wrapped) and rows the image overlaps.
    let columns: ClosedRange<Int>
    let rows: ClosedRange<Int>?

    init(_ viewport: Viewport) {
        self.viewport = viewport
        (left, top) = viewport.origin
        side = viewport.tileSize
        across = 1 << viewport.zoom
        columns = Self.floorDivide(left, side)...Self.floorDivide(left + viewport.pixelWidth - 1, side)
        let first = max(0, Self.floorDivide(top, side))
        let last = min(across - 1, Self.floorDivide(top + viewport.pixelHeight - 1, side))
        rows = first <= last ? first...last : nil
    }

    /// Every distinct tile to ask for.
    var tiles: [Tile] {
        guard let rows else { return [] }
        var seen = Set<Tile>()
        var tiles: [Tile] = []
        for row in rows {
            for column in columns {
                let tile = Tile(x: Self.modulo(column, across), y: row)
                if seen.insert(tile).inserted { tiles.append(tile) }
            }
        }
        return tiles
    }

    /// A layer's tile as it is drawn: decoded, checked, scaled to `side` and with the layer's
    /// opacity applied unless its images carry it.
    func flatten(_ png: [UInt8], of layer: some TileLayer) throws(TileLayerError) -> RGBAImage {
        let image = try TileCompositor.decode(png, layer: layer.name, expected: layer.imageSize(scale: viewport.scale))
        let opacity = layer.imagesIncludeOpacity ? 1 : layer.opacity
        guard opacity.isFinite, (0...1).contains(opacity) else {
            throw .invalidOpacity(layer: layer.name, opacity: opacity)
        }
        let sized = TileCompositor.resized(image, to: side)
        if opacity == 1 { return sized }
        return TileCompositor.composite([TileCompositor.Layer(image: sized, opacity: opacity)], side: side)
    }

    /// The image: each tile's pixels copied to where they fall, transparent elsewhere.
    func draw(_ tiles: [Tile: RGBAImage]) -> RGBAImage {
        let (width, height) = (viewport.pixelWidth, viewport.pixelHeight)
        var output = RGBAImage(transparentWidth: width, height: height)
        guard let rows else { return output }
        output.pixels.withUnsafeMutableBufferPointer { out in
            for row in rows {
                for column in columns {
                    guard let image = tiles[Tile(x: Self.modulo(column, across), y: row)] else { continue }
                    // The tile's pixels [x0, x0 + side) × [y0, y0 + side) in image coordinates.
                    let x0 = column * side - left
                    let y0 = row * side - top
                    let fromX = max(0, -x0)
                    let toX = min(side, width - x0)
                    let fromY = max(0, -y0)
                    let toY = min(side, height - y0)
                    guard fromX < toX, fromY < toY else { continue }
                    image.pixels.withUnsafeBufferPointer { source in
                        for y in fromY..<toY {
                            let from = (y * side + fromX) * 4
                            let to = ((y0 + y) * width + x0 + fromX) * 4
                            for k in 0..<((toX - fromX) * 4) { out[to + k] = source[from + k] }
                        }
                    }
                }
            }
        }
        return output
    }

    static func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
    static func modulo(_ a: Int, _ b: Int) -> Int { ((a % b) + b) % b }
}

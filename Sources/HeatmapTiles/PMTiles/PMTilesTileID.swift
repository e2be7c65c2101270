/// PMTiles v3 tile ids: the tiles of all lower zooms, `(4^z - 1) / 3`, plus the tile's position
/// on the Hilbert curve of its zoom, so that ids run zoom by zoom and neighbours stay close.
enum PMTilesTileID {
    /// The id of a valid tile (zoom 0...22).
    static func id(_ tile: TileCoordinate) -> UInt64 {
        let z = tile.zoom
        var id = ((UInt64(1) << UInt64(2 * z)) - 1) / 3
        var x = UInt64(tile.x)
        var y = UInt64(tile.y)
        var a = z - 1
        while a >= 0 {
            let s = UInt64(1) << UInt64(a)
            let rx = s & x
            let ry = s & y
            id += ((3 * rx) ^ ry) << UInt64(a)
            (x, y) = rotate(s, x, y, rx, ry)
            a -= 1
        }
        return id
    }

    /// The tile of an id, or `nil` beyond zoom 22.
    static func tile(_ id: UInt64) -> TileCoordinate? {
        var z = 0
        var base: UInt64 = 0
        while true {
            guard z <= 22 else { return nil }
            let count = UInt64(1) << UInt64(2 * z)
            if id < base + count { break }
            base += count
            z += 1
        }
        var position = id - base
        var x: UInt64 = 0
        var y: UInt64 = 0
        var s: UInt64 = 1
        let n = UInt64(1) << UInt64(z)
        while s < n {
            let rx = (position / 2) & s
            let ry = (position ^ rx) & s
            (x, y) = rotate(s, x, y, rx, ry)
            x += rx
            y += ry
            position >>= 1
            s <<= 1
        }
        return TileCoordinate(zoom: z, x: Int(x), y: Int(y))
    }

    private static func rotate(_ n: UInt64, _ x: UInt64, _ y: UInt64, _ rx: UInt64, _ ry: UInt64) -> (UInt64, UInt64) {
        guard ry == 0 else { return (x, y) }
        if rx != 0 { return (n &- 1 &- y, n &- 1 &- x) }
        return (y, x)
    }
}

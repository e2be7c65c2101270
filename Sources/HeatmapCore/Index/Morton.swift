/// Z-order (Morton) keys: x in the even bits, y in the odd bits.
///
/// Every aligned square of 2^k × 2^k units is one contiguous range of keys, so points
/// sorted by key form an implicit quadtree: a cell's points are a slice of the array.
enum Morton {
    /// The key of a unit position.
    @inline(__always)
    static func key(x: UInt32, y: UInt32) -> UInt64 {
        spread(x) | (spread(y) << 1)
    }

    /// The unit x of a key.
    @inline(__always)
    static func x(_ key: UInt64) -> UInt32 { compact(key) }

    /// The unit y of a key.
    @inline(__always)
    static func y(_ key: UInt64) -> UInt32 { compact(key >> 1) }

    @inline(__always)
    static func spread(_ value: UInt32) -> UInt64 {
        var v = UInt64(value)
        v = (v | (v << 16)) & 0x0000_FFFF_0000_FFFF
        v = (v | (v << 8)) & 0x00FF_00FF_00FF_00FF
        v = (v | (v << 4)) & 0x0F0F_0F0F_0F0F_0F0F
        v = (v | (v << 2)) & 0x3333_3333_3333_3333
        v = (v | (v << 1)) & 0x5555_5555_5555_5555
        return v
    }

    @inline(__always)
    static func compact(_ key: UInt64) -> UInt32 {
        var v = key & 0x5555_5555_5555_5555
        v = (v | (v >> 1)) & 0x3333_3333_3333_3333
        v = (v | (v >> 2)) & 0x0F0F_0F0F_0F0F_0F0F
        v = (v | (v >> 4)) & 0x00FF_00FF_00FF_00FF
        v = (v | (v >> 8)) & 0x0000_FFFF_0000_FFFF
        v = (v | (v >> 16)) & 0x0000_0000_FFFF_FFFF
        return UInt32(truncatingIfNeeded: v)
    }
}

extension PointIndex {
    /// The Z-order key the index sorts a unit position by (see ``WebMercator/unitX(longitude:)``
    /// and ``WebMercator/unitY(latitude:)``): x in the even bits, y in the odd bits. For sources
    /// that store positions as the index does, such as a database table.
    public static func key(unitX: UInt32, unitY: UInt32) -> UInt64 { Morton.key(x: unitX, y: unitY) }
}

extension FilterIndex {
    /// How a point's second, slab and category code ride through the builder's key sort
    /// beside its weight: packed into 32 bits (``PackedPoint``, 8 bytes a point) where their
    /// widths add up to at most 32, else a second and a tag of their own (``SortedPoint``,
    /// 12 bytes). The radix sort moves the payload six times: the smaller one saves a sixth of
    /// the bytes it moves and of its scratch.
    struct PayloadLayout: Sendable {
        /// Whether the tag is the slab and the code (at most one category column) rather than
        /// the point's position (the slab and codes read by position when dealt).
        let tagged: Bool
        /// The bits of the code and of the slab in a packed payload (the second above them).
        let codeBits: UInt32
        let slabBits: UInt32
        let codeMask: UInt32
        let slabMask: UInt32

        /// The layout for points in `slabs` slabs whose seconds after their slab's first are
        /// at most `span`, with `columns` category columns whose first has `values` values;
        /// `packs` tells whether the 8-byte payload holds them.
        init(slabs: Int, span: Int64, columns: Int, values: Int) {
            func width(_ x: Int64) -> UInt32 { x <= 0 ? 0 : UInt32(64 - UInt64(x).leadingZeroBitCount) }
            tagged = columns <= 1
            codeBits = columns == 0 ? 0 : width(Int64(values) - 1)
            slabBits = width(Int64(slabs) - 1)
            codeMask = UInt32(truncatingIfNeeded: (UInt64(1) << UInt64(codeBits)) - 1)
            slabMask = UInt32(truncatingIfNeeded: (UInt64(1) << UInt64(slabBits)) - 1)
            packs = tagged && codeBits + slabBits + width(span) <= 32
        }

        /// Whether a ``PackedPoint`` holds every point's second, slab and code.
        let packs: Bool
    }
}

/// What moves with a point's key through the builder's sort: its weight, and its second after
/// its slab's first and its tag (see ``FilterIndex/PayloadLayout``) as a layout lays them out.
protocol SortedPayload: BitwiseCopyable {
    /// The point's payload; `slab` and `code` (the first column's, 0 without) only where the
    /// layout is tagged, `position` (its place in the order appended) only where it is not.
    init(
        weight: Float, second: UInt32, slab: UInt32, code: UInt32, position: UInt32,
        layout: FilterIndex.PayloadLayout)
    /// The point's weight.
    var weight: Float { get }
    /// The point's second after its slab's first.
    func second(_ layout: FilterIndex.PayloadLayout) -> UInt32
    /// Its slab (high 16 bits) and code (low 16) where the layout is tagged, else its position.
    func tag(_ layout: FilterIndex.PayloadLayout) -> UInt32
}

extension FilterIndex {
    /// A payload of 12 bytes: the weight, the second and the tag, each 32 bits.
    struct SortedPoint: SortedPayload {
        let weight: Float
        let second: UInt32
        let tag: UInt32

        init(weight: Float, second: UInt32, slab: UInt32, code: UInt32, position: UInt32, layout: PayloadLayout) {
            self.weight = weight
            self.second = second
            tag = layout.tagged ? slab << 16 | code : position
        }

        @inline(__always) func second(_ layout: PayloadLayout) -> UInt32 { second }
        @inline(__always) func tag(_ layout: PayloadLayout) -> UInt32 { tag }
    }

    /// A payload of 8 bytes: the weight, and the second, slab and code in 32 bits (second
    /// highest, code lowest), for a layout that ``PayloadLayout/packs``.
    struct PackedPoint: SortedPayload {
        let weight: Float
        let bits: UInt32

        init(weight: Float, second: UInt32, slab: UInt32, code: UInt32, position: UInt32, layout: PayloadLayout) {
            self.weight = weight
            bits = second << (layout.slabBits + layout.codeBits) | slab << layout.codeBits | code
        }

        @inline(__always) func second(_ layout: PayloadLayout) -> UInt32 { bits >> (layout.slabBits + layout.codeBits) }
        @inline(__always) func tag(_ layout: PayloadLayout) -> UInt32 {
            ((bits >> layout.codeBits) & layout.slabMask) << 16 | (bits & layout.codeMask)
        }
    }
}

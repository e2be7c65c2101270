/// Packs bits least-significant first into bytes, as deflate wants them, at a pointer into a
/// buffer someone else owns.
///
/// After every write the whole bytes are stored and at most 7 bits wait in a 64-bit
/// accumulator, so one write takes up to 56 bits. A write stores 8 bytes with one unaligned
/// store, whatever it completes: the buffer needs 8 bytes of room past the last byte written.
struct DeflateBitStream {
    /// Where the next whole byte goes.
    private(set) var next: UnsafeMutableRawPointer
    /// The bits not yet in whole bytes, in the low ``pendingBits`` bits.
    private var accumulator: UInt64 = 0
    /// How many bits wait in the accumulator, 0...7.
    private(set) var pendingBits: UInt64 = 0

    /// A stream that writes from `start` on.
    init(at start: UnsafeMutableRawPointer) { next = start }

    /// Appends the low `bits` bits of `value`; higher bits of `value` must be 0.
    ///
    /// - Precondition: `bits <= 56`, and 8 bytes at ``next`` are writable.
    @inline(__always)
    mutating func write(_ value: UInt64, bits: UInt64) {
        accumulator |= value &<< pendingBits
        pendingBits &+= bits
        next.storeBytes(of: accumulator.littleEndian, as: UInt64.self)
        let whole = pendingBits &>> 3
        next += Int(truncatingIfNeeded: whole)
        accumulator = accumulator &>> (whole &<< 3)
        pendingBits &= 7
    }

    /// Appends a packed symbol: `entry & 0xFF_FFFF_FFFF_FFFF` holds the bits, `entry >> 56` their count.
    @inline(__always)
    mutating func write(packed entry: UInt64) {
        write(entry & 0xFF_FFFF_FFFF_FFFF, bits: entry &>> 56)
    }

    /// Appends two packed symbols with one store.
    ///
    /// - Precondition: together at most 56 bits, and 8 bytes at ``next`` are writable.
    @inline(__always)
    mutating func write(packed first: UInt64, _ second: UInt64) {
        accumulator |= (first & 0xFF_FFFF_FFFF_FFFF) &<< pendingBits
        pendingBits &+= first &>> 56
        accumulator |= (second & 0xFF_FFFF_FFFF_FFFF) &<< pendingBits
        write(0, bits: second &>> 56)
    }

    /// Pads with zero bits to a whole byte and stores it; the stream then ends at ``next``.
    mutating func alignToByte() {
        if pendingBits > 0 { write(0, bits: 8 - pendingBits) }
    }

    /// Continues this stream at `destination`, to which the caller has copied the whole bytes
    /// written so far: the pending bits carry over.
    mutating func move(to destination: UnsafeMutableRawPointer) {
        next = destination
    }
}

extension BandColorizer {
    /// The number of codes ``colorizeEntries(_:count:into:)`` writes: ``ColorMap/count`` + 1
    /// (0 for transparent, e + 1 for entry e).
    package var codeCount: Int { map.count + 1 }

    /// The colour of each code as a `UInt32` in memory order (the RGBA bytes of a pixel loaded
    /// as one little-endian word): 0, transparent black, for code 0, then each entry's.
    package var codeColors: [UInt32] {
        [0]
            + (0..<map.count).map { e in
                UInt32(map.entries[4 * e]) | UInt32(map.entries[4 * e + 1]) << 8 | UInt32(map.entries[4 * e + 2]) << 16
                    | UInt32(map.entries[4 * e + 3]) << 24
            }
    }

    /// Writes, for each of the `count` intensities at `values` above 0, its entry e + 1 to the
    /// code for it at `codes`, and sets `used[e + 1]` to 1; the others stay as they are (zero,
    /// transparent, in a buffer the caller cleared). Returns the number of codes written. The
    /// pixels are those of ``colorize(_:count:into:)``: code c is entry c − 1's colour.
    ///
    /// - Precondition: ``codeCount`` ≤ 256; `used` holds ``codeCount`` bytes.
    package func colorizeEntries(
        _ values: UnsafePointer<Float>, count: Int, into codes: UnsafeMutablePointer<UInt8>,
        used: UnsafeMutablePointer<UInt8>
    ) -> Int {
        precondition(codeCount <= 256, "every entry's code must fit a byte")
        return colorizeCodes(values, count: count, into: codes, used: used)
    }

    /// ``colorizeEntries(_:count:into:used:)`` with two-byte codes, for maps of up to 65,535 entries.
    package func colorizeEntries(
        _ values: UnsafePointer<Float>, count: Int, into codes: UnsafeMutablePointer<UInt16>,
        used: UnsafeMutablePointer<UInt8>
    ) -> Int {
        precondition(codeCount <= 65_536, "every entry's code must fit two bytes")
        return colorizeCodes(values, count: count, into: codes, used: used)
    }

    @inline(__always)
    private func colorizeCodes<Code: FixedWidthInteger & UnsignedInteger>(
        _ values: UnsafePointer<Float>, count: Int, into codes: UnsafeMutablePointer<Code>,
        used: UnsafeMutablePointer<UInt8>
    ) -> Int {
        guard draws else { return 0 }
        let last = map.count - 1
        if map.scale != .linear {
            return limits.withUnsafeBufferPointer { limits in
                map.buckets.withUnsafeBufferPointer { buckets in
                    ColorMap.codes(values, count: count, into: codes, used: used) { v in
                        ColorMap.entry(of: v, limits: limits, buckets: buckets, inverse: inverse, last: last)
                    }
                }
            }
        }
        let factor = self.factor
        let lastEntry = Double(last)
        return ColorMap.codes(values, count: count, into: codes, used: used) { v in
            // As in ``ColorMap/colorize(_:maximum:)``: clamped before converting.
            let scaled = Double(v) * factor
            return scaled < lastEntry ? Int(scaled) : last
        }
    }
}

extension ColorMap {
    /// ``colorizePositive(_:count:into:entry:)``'s loop writing codes, entry + 1, instead of
    /// colours, and marking each code written in `used`; returns how many were written. Runs
    /// of eight zero intensities are skipped at once.
    @inline(__always)
    static func codes<Code: FixedWidthInteger & UnsignedInteger>(
        _ source: UnsafePointer<Float>, count: Int, into codes: UnsafeMutablePointer<Code>,
        used: UnsafeMutablePointer<UInt8>, entry: (Float) -> Int
    ) -> Int {
        var written = 0
        var i = 0
        while i < count {
            if i + 8 <= count && !any(UnsafeRawPointer(source + i).loadUnaligned(as: SIMD8<Float>.self) .> 0) {
                i += 8
                continue
            }
            let end = min(count, i + 8)
            while i < end {
                let v = source[i]
                if v > 0 {
                    let code = entry(v) &+ 1
                    codes[i] = Code(truncatingIfNeeded: code)
                    used[code] = 1
                    written &+= 1
                }
                i += 1
            }
        }
        return written
    }
}

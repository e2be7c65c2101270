extension ColorMap {
    /// Writes into `image` the entry `entry(I)` of every pixel of `grid` whose intensity I is
    /// above 0; the others stay as they are (transparent). The one loop of both scales: runs of
    /// eight zero intensities are skipped at once.
    ///
    /// - Parameter entry: the entry of an intensity > 0 (NaN and infinity included), in
    ///   0..<``count``.
    @inline(__always)
    func colorizePositive(_ grid: IntensityGrid, into image: inout RGBAImage, entry: (Float) -> Int) {
        grid.values.withUnsafeBufferPointer { values in
            image.pixels.withUnsafeMutableBytes { out in
                guard let source = values.baseAddress, let target = out.baseAddress else { return }
                colorizePositive(source, count: values.count, into: target, entry: entry)
            }
        }
    }

    /// ``colorizePositive(_:into:entry:)`` over `count` intensities at `source`, into the
    /// `4 × count` bytes at `target`.
    @inline(__always)
    func colorizePositive(
        _ source: UnsafePointer<Float>, count: Int, into target: UnsafeMutableRawPointer, entry: (Float) -> Int
    ) {
        entries.withUnsafeBytes { table in
            var i = 0
            while i < count {
                // Eight zero intensities at a time stay transparent.
                if i + 8 <= count && !any(UnsafeRawPointer(source + i).loadUnaligned(as: SIMD8<Float>.self) .> 0) {
                    i += 8
                    continue
                }
                let end = min(count, i + 8)
                while i < end {
                    let v = source[i]
                    if v > 0 {
                        target.storeBytes(
                            of: table.loadUnaligned(fromByteOffset: 4 * entry(v), as: UInt32.self),
                            toByteOffset: 4 * i, as: UInt32.self)
                    }
                    i += 1
                }
            }
        }
    }
}

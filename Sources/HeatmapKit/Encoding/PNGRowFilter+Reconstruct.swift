extension PNGRowFilter {
    /// Undoes PNG filter `filter` (0 none, 1 sub, 2 up, 3 average, 4 Paeth) on `row` in place,
    /// `above` the reconstructed row above (zeros for a pass's first), `step` the bytes of a
    /// pixel (at least 1, for images of fewer than 8 bits a pixel).
    ///
    /// - Throws: ``PNGError`` for a filter type above 4.
    /// - Complexity: O(`count`).
    static func reconstruct(
        _ row: UnsafeMutablePointer<UInt8>, above: UnsafePointer<UInt8>, count: Int, step: Int, filter: UInt8
    ) throws(PNGError) {
        let lead = min(step, count)
        switch filter {
        case 0:
            return
        case 1:
            for i in step..<max(step, count) { row[i] &+= row[i &- step] }
        case 2:
            for i in 0..<count { row[i] &+= above[i] }
        case 3:
            for i in 0..<lead { row[i] &+= above[i] >> 1 }
            for i in step..<max(step, count) {
                row[i] &+= UInt8(truncatingIfNeeded: (UInt16(row[i &- step]) &+ UInt16(above[i])) >> 1)
            }
        case 4:
            for i in 0..<lead { row[i] &+= above[i] }  // Left and upper-left are 0: predicts up.
            for i in step..<max(step, count) {
                let a = Int16(row[i &- step])
                let b = Int16(above[i])
                let c = Int16(above[i &- step])
                let pa = abs(b &- c)
                let pb = abs(a &- c)
                let pc = abs(a &+ b &- c &- c)
                let predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                row[i] &+= UInt8(truncatingIfNeeded: predictor)
            }
        default:
            throw PNGFile.invalid("a scanline has filter type \(filter), not 0 to 4")
        }
    }
}

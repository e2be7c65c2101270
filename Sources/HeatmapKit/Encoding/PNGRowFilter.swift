/// PNG filter method 0 on rows of 8-bit RGBA pixels (4 bytes per pixel) or of palette
/// indices (1 byte per pixel, or several pixels a byte), over unsafe pointers.
enum PNGRowFilter {
    /// Returns `height` rows of `rowBytes + 1` bytes: each row's filter type, then its filtered bytes.
    static func filterRows(of pixels: [UInt8], rowBytes: Int, height: Int, filter: PNGEncoder.Filter) -> [UInt8] {
        let stride = rowBytes + 1
        let fixedType = fixedType(of: filter)
        return [UInt8](unsafeUninitializedCapacity: stride * height) { output, count in
            let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * 3)
            defer { scratch.deallocate() }
            scratch.initialize(repeating: 0, count: rowBytes * 3)  // The first rowBytes: the row above row 0.
            var candidate = scratch + rowBytes
            var best = scratch + 2 * rowBytes
            pixels.withUnsafeBufferPointer { source in
                guard let pixels = source.baseAddress, let rows = output.baseAddress else { return }
                for y in 0..<height {
                    let row = pixels + y * rowBytes
                    let previous = y == 0 ? UnsafePointer(scratch) : row - rowBytes
                    filterRow(
                        row, previous: previous, into: rows + y * stride, count: rowBytes, fixedType: fixedType,
                        candidate: &candidate, best: &best)
                }
                count = stride * height
            }
        }
    }

    /// The types ``PNGEncoder/Filter/adaptive`` tries: sub, up, Paeth; "none" is the starting best.
    static let candidates: [UInt8] = [1, 2, 4]

    /// The filter type of `filter`, `nil` for ``PNGEncoder/Filter/adaptive`` (chosen per row).
    static func fixedType(of filter: PNGEncoder.Filter) -> UInt8? {
        switch filter {
        case .none: 0
        case .sub: 1
        case .up: 2
        case .paeth: 4
        case .adaptive: nil
        }
    }

    /// Writes `row` (`count` bytes, below `previous`) as one filtered row to `out`: its filter
    /// type, then its `count` filtered bytes; with `fixedType` `nil`, the type of the smallest
    /// sum of magnitudes, `candidate` and `best` being `count` bytes of scratch each. The
    /// filters' "left" byte is `bytesPerPixel` (4 for RGBA, the default; 1 for indices) before.
    @inline(__always)
    static func filterRow(
        _ row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>,
        count rowBytes: Int, fixedType: UInt8?, candidate: inout UnsafeMutablePointer<UInt8>,
        best: inout UnsafeMutablePointer<UInt8>, bytesPerPixel: Int = 4
    ) {
        if let fixedType {
            out[0] = fixedType
            apply(fixedType, row: row, previous: previous, into: out + 1, count: rowBytes, bytesPerPixel: bytesPerPixel)
            return
        }
        var bestType: UInt8 = 0
        var bestSum = sumOfMagnitudes(row, count: rowBytes)
        for type in candidates where bestSum > 0 {
            apply(type, row: row, previous: previous, into: candidate, count: rowBytes, bytesPerPixel: bytesPerPixel)
            let sum = sumOfMagnitudes(candidate, count: rowBytes)
            if sum < bestSum {
                (bestType, bestSum) = (type, sum)
                swap(&candidate, &best)
            }
        }
        out[0] = bestType
        (out + 1).initialize(from: bestType == 0 ? row : UnsafePointer(best), count: rowBytes)
    }

    /// Writes `row` filtered with PNG filter `type` (0 none, 1 sub, 2 up, 4 Paeth) to `out`,
    /// the left byte `bytesPerPixel` before.
    @inline(__always)
    static func apply(
        _ type: UInt8, row: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>, count: Int, bytesPerPixel bpp: Int = 4
    ) {
        let head = min(bpp, count)
        switch type {
        case 1:
            for i in 0..<head { out[i] = row[i] }
            for i in head..<count { out[i] = row[i] &- row[i &- bpp] }
        case 2:
            for i in 0..<count { out[i] = row[i] &- previous[i] }
        case 4:
            for i in 0..<head { out[i] = row[i] &- previous[i] }  // Left and upper-left are 0: predicts up.
            var i = head
            while i < count {
                let a = Int16(row[i &- bpp])
                let b = Int16(previous[i])
                let c = Int16(previous[i &- bpp])
                let towardA = b &- c  // p - a, where p = a + b - c.
                let towardB = a &- c  // p - b
                let towardC = towardA &+ towardB  // p - c
                let pa = towardA < 0 ? 0 &- towardA : towardA
                let pb = towardB < 0 ? 0 &- towardB : towardB
                let pc = towardC < 0 ? 0 &- towardC : towardC
                let predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                out[i] = row[i] &- UInt8(truncatingIfNeeded: predictor)
                i &+= 1
            }
        default:
            out.initialize(from: row, count: count)
        }
    }

    /// The sum of the bytes read as signed values, without sign: libpng's filter heuristic.
    @inline(__always)
    static func sumOfMagnitudes(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        var total = 0
        var start = 0
        while start < count {
            // |Int8(bitPattern: v)| == min(v, 0 &- v) as UInt8; 32-bit lanes let this vectorise.
            let end = min(count, start + (1 << 20))
            var sum: UInt32 = 0
            for i in start..<end {
                let value = bytes[i]
                sum &+= UInt32(min(value, 0 &- value))
            }
            total += Int(sum)
            start = end
        }
        return total
    }
}

/// Sorts Morton keys with their weights, least significant digit first.
///
/// - Complexity: O(n) time per 11-bit digit that varies among the keys (at most 6), and
///   O(n) extra memory for one scratch copy (12 bytes a key), freed before returning.
enum RadixSort {
    static func sort(keys: inout [UInt64], weights: inout [Float]) {
        let count = keys.count
        guard count > 1, weights.count == count else { return }
        if count < 512 {
            let order = (0..<count).sorted { keys[$0] < keys[$1] }
            keys = order.map { keys[$0] }
            weights = order.map { weights[$0] }
            return
        }
        // One handle on each array for the whole sort: the passes go back and forth between
        // the arrays and a scratch copy, and the arrays are never copied.
        keys.withUnsafeMutableBufferPointer { keyBuffer in
            weights.withUnsafeMutableBufferPointer { weightBuffer in
                sort(keys: keyBuffer, weights: weightBuffer)
            }
        }
    }

    /// Sorts `keys` and `weights` (of equal counts) by key.
    private static func sort(keys: UnsafeMutableBufferPointer<UInt64>, weights: UnsafeMutableBufferPointer<Float>) {
        let count = keys.count
        let digitBits = 11
        let buckets = 1 << digitBits
        let passes = (64 + digitBits - 1) / digitBits
        let histograms = UnsafeMutableBufferPointer<Int>.allocate(capacity: buckets * passes)
        defer { histograms.deallocate() }
        histograms.initialize(repeating: 0)
        for key in keys {
            for pass in 0..<passes {
                histograms[pass * buckets + Int(truncatingIfNeeded: key >> UInt64(pass * digitBits)) & (buckets - 1)] +=
                    1
            }
        }
        let scratchKeys = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: count)
        let scratchWeights = UnsafeMutableBufferPointer<Float>.allocate(capacity: count)
        defer {
            scratchKeys.deallocate()
            scratchWeights.deallocate()
        }
        var (fromKeys, fromWeights) = (keys, weights)
        var (toKeys, toWeights) = (scratchKeys, scratchWeights)
        let offsets = UnsafeMutableBufferPointer<Int>.allocate(capacity: buckets)
        defer { offsets.deallocate() }
        for pass in 0..<passes {
            let histogram = UnsafeMutableBufferPointer(rebasing: histograms[(pass * buckets)..<((pass + 1) * buckets)])
            // A digit shared by every key leaves the order as it is: skip the pass.
            if histogram.contains(count) { continue }
            var running = 0
            for digit in 0..<buckets {
                offsets[digit] = running
                running += histogram[digit]
            }
            let shift = UInt64(pass * digitBits)
            for i in 0..<count {
                let digit = Int(truncatingIfNeeded: fromKeys[i] >> shift) & (buckets - 1)
                let slot = offsets[digit]
                offsets[digit] = slot + 1
                toKeys[slot] = fromKeys[i]
                toWeights[slot] = fromWeights[i]
            }
            swap(&fromKeys, &toKeys)
            swap(&fromWeights, &toWeights)
        }
        // After an odd number of passes the sorted keys are in the scratch copy.
        if fromKeys.baseAddress != keys.baseAddress {
            _ = keys.update(fromContentsOf: fromKeys)
            _ = weights.update(fromContentsOf: fromWeights)
        }
    }
}

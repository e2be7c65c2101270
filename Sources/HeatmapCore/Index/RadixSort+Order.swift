extension RadixSort {
    /// The positions of `keys` in ascending order of key, equal keys in their order (stable):
    /// the permutation that sorts other arrays along with the keys.
    ///
    /// - Complexity: O(n) per 11-bit digit that varies among the keys (at most 6); 24 bytes a
    ///   key of scratch, freed before returning.
    static func order(of keys: [UInt64]) -> [UInt32] {
        let count = keys.count
        precondition(count <= Int(UInt32.max), "at most 2^32 - 1 points")
        var order = (0..<count).map { UInt32(truncatingIfNeeded: $0) }
        guard count > 1 else { return order }
        let digitBits = 11
        let buckets = 1 << digitBits
        let passes = (64 + digitBits - 1) / digitBits
        var histograms = [Int](repeating: 0, count: buckets * passes)
        for key in keys {
            for pass in 0..<passes {
                histograms[pass * buckets + Int(truncatingIfNeeded: key >> UInt64(pass * digitBits)) & (buckets - 1)] +=
                    1
            }
        }
        var from = keys
        var to = [UInt64](repeating: 0, count: count)
        var toOrder = [UInt32](repeating: 0, count: count)
        var offsets = [Int](repeating: 0, count: buckets)
        for pass in 0..<passes {
            let histogram = histograms[(pass * buckets)..<((pass + 1) * buckets)]
            if histogram.contains(count) { continue }
            var running = 0
            for digit in 0..<buckets {
                offsets[digit] = running
                running += histogram[pass * buckets + digit]
            }
            let shift = UInt64(pass * digitBits)
            from.withUnsafeBufferPointer { fromKeys in
                to.withUnsafeMutableBufferPointer { toKeys in
                    order.withUnsafeBufferPointer { fromOrder in
                        toOrder.withUnsafeMutableBufferPointer { toOrder in
                            offsets.withUnsafeMutableBufferPointer { offsets in
                                for i in 0..<count {
                                    let digit = Int(truncatingIfNeeded: fromKeys[i] >> shift) & (buckets - 1)
                                    let slot = offsets[digit]
                                    offsets[digit] = slot + 1
                                    toKeys[slot] = fromKeys[i]
                                    toOrder[slot] = fromOrder[i]
                                }
                            }
                        }
                    }
                }
            }
            swap(&from, &to)
            swap(&order, &toOrder)
        }
        return order
    }
}

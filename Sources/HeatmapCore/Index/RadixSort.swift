/// Sorts Morton keys with their weights, least significant digit first.
///
/// - Complexity: O(n) time per 11-bit digit that varies among the keys (at most 6), and
///   O(n) extra memory for one scratch copy.
enum RadixSort {
    static func sort(keys: inout [UInt64], weights: inout [Float]) {
        let count = keys.count
        guard count > 1 else { return }
        if count < 512 {
            let order = (0..<count).sorted { keys[$0] < keys[$1] }
            keys = order.map { keys[$0] }
            weights = order.map { weights[$0] }
            return
        }
        let digitBits = 11
        let buckets = 1 << digitBits
        let passes = (64 + digitBits - 1) / digitBits
        var histograms = [Int](repeating: 0, count: buckets * passes)
        keys.withUnsafeBufferPointer { k in
            histograms.withUnsafeMutableBufferPointer { h in
                for key in k {
                    for pass in 0..<passes {
                        let digit = Int(truncatingIfNeeded: key >> UInt64(pass * digitBits)) & (buckets - 1)
                        h[pass * buckets + digit] += 1
                    }
                }
            }
        }
        var scratchKeys = [UInt64](repeating: 0, count: count)
        var scratchWeights = [Float](repeating: 0, count: count)
        for pass in 0..<passes {
            let base = pass * buckets
            // A digit shared by every key leaves the order as it is: skip the pass.
            if histograms[base..<(base + buckets)].contains(count) { continue }
            var offsets = [Int](repeating: 0, count: buckets)
            var running = 0
            for digit in 0..<buckets {
                offsets[digit] = running
                running += histograms[base + digit]
            }
            let shift = UInt64(pass * digitBits)
            keys.withUnsafeBufferPointer { k in
                weights.withUnsafeBufferPointer { w in
                    scratchKeys.withUnsafeMutableBufferPointer { sk in
                        scratchWeights.withUnsafeMutableBufferPointer { sw in
                            offsets.withUnsafeMutableBufferPointer { o in
                                for i in 0..<count {
                                    let digit = Int(truncatingIfNeeded: k[i] >> shift) & (buckets - 1)
                                    let slot = o[digit]
                                    o[digit] = slot + 1
                                    sk[slot] = k[i]
                                    sw[slot] = w[i]
                                }
                            }
                        }
                    }
                }
            }
            swap(&keys, &scratchKeys)
            swap(&weights, &scratchWeights)
        }
    }
}

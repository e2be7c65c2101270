/// Sorts 64-bit keys (Morton keys, times) with a payload that moves along with them, least
/// significant digit first: stable, so equal keys keep their order.
///
/// - Complexity: O(n) time per 11-bit digit that varies among the keys (at most 6), and
///   O(n) extra memory for one scratch copy (8 bytes a key and the payload's size), freed
///   before returning.
enum RadixSort {
    /// Sorts `keys` and `weights` (of equal counts) by key: the plain index's sort.
    static func sort(keys: inout [UInt64], weights: inout [Float]) {
        sort(keys: &keys, payload: &weights)
    }

    /// Sorts `keys` alone.
    static func sort(keys: inout [UInt64]) {
        var nothing = [Nothing](repeating: Nothing(), count: keys.count)
        sort(keys: &keys, payload: &nothing)
    }

    /// A payload of no bytes.
    private struct Nothing: BitwiseCopyable {}

    /// Sorts `keys` and `payload` (of equal counts) by key, equal keys in their order.
    static func sort<Payload: BitwiseCopyable>(keys: inout [UInt64], payload: inout [Payload]) {
        let count = keys.count
        guard count > 1, payload.count == count else { return }
        if count < 512 {
            let order = (0..<count).sorted { (keys[$0], $0) < (keys[$1], $1) }
            keys = order.map { keys[$0] }
            payload = order.map { payload[$0] }
            return
        }
        // One handle on each array for the whole sort: the passes go back and forth between
        // the arrays and a scratch copy, and the arrays are never copied.
        keys.withUnsafeMutableBufferPointer { keyBuffer in
            payload.withUnsafeMutableBufferPointer { payloadBuffer in
                sort(keys: keyBuffer, payload: payloadBuffer)
            }
        }
    }

    /// Sorts `keys` and `payload` (of equal counts) by key, in the buffers where they lie.
    static func sort<Payload: BitwiseCopyable>(
        keys: UnsafeMutableBufferPointer<UInt64>, payload: UnsafeMutableBufferPointer<Payload>
    ) {
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
        let scratchPayload = UnsafeMutableBufferPointer<Payload>.allocate(capacity: count)
        defer {
            scratchKeys.deallocate()
            scratchPayload.deallocate()
        }
        var (fromKeys, fromPayload) = (keys, payload)
        var (toKeys, toPayload) = (scratchKeys, scratchPayload)
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
                toPayload[slot] = fromPayload[i]
            }
            swap(&fromKeys, &toKeys)
            swap(&fromPayload, &toPayload)
        }
        // After an odd number of passes the sorted keys are in the scratch copy.
        if fromKeys.baseAddress != keys.baseAddress {
            _ = keys.update(fromContentsOf: fromKeys)
            _ = payload.update(fromContentsOf: fromPayload)
        }
    }

    /// The positions of `keys` in ascending order of key, equal keys in their order (stable):
    /// the permutation that sorts other arrays along with the keys.
    ///
    /// - Complexity: as ``sort(keys:payload:)``, with a copy of the keys (12 bytes a key and
    ///   as much again of scratch).
    static func order(of keys: [UInt64]) -> [UInt32] {
        precondition(keys.count <= Int(UInt32.max), "at most 2^32 - 1 points")
        var keys = keys
        var order = (0..<keys.count).map { UInt32(truncatingIfNeeded: $0) }
        sort(keys: &keys, payload: &order)
        return order
    }
}

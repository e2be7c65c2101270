/// Length-limited Huffman codes in deflate's canonical form.
enum HuffmanCode {
    /// Code lengths for symbol frequencies, none longer than `limit`; unused symbols get 0.
    /// Frequencies are halved (keeping used symbols at least 1) until the tree fits the limit.
    static func lengths(for counts: [Int], limit: Int) -> [UInt8] {
        var weights = counts
        while true {
            let lengths = unlimitedLengths(for: weights)
            if (lengths.max() ?? 0) <= UInt8(limit) { return lengths }
            weights = weights.map { $0 == 0 ? 0 : max(1, $0 / 2) }
        }
    }

    /// Plain Huffman code lengths; a single used symbol gets length 1.
    ///
    /// The two-queue construction: leaves sorted by weight (ties by symbol) in one queue,
    /// merged nodes in a second, which comes out sorted by itself; each step joins the two
    /// lightest fronts.
    static func unlimitedLengths(for counts: [Int]) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: counts.count)
        let leaves = counts.indices.filter { counts[$0] > 0 }.sorted { (counts[$0], $0) < (counts[$1], $1) }
        if leaves.count == 1 { lengths[leaves[0]] = 1 }
        guard leaves.count > 1 else { return lengths }
        // Nodes: leaves are 0..<counts.count (their symbols), merged nodes follow; parent links give depths.
        var weight = counts
        var parent = [Int](repeating: -1, count: counts.count)
        var merged: [Int] = []
        var nextLeaf = 0
        var nextMerged = 0
        func takeLightest() -> Int {
            if nextLeaf < leaves.count
                && (nextMerged >= merged.count || weight[leaves[nextLeaf]] <= weight[merged[nextMerged]])
            {
                nextLeaf += 1
                return leaves[nextLeaf - 1]
            }
            nextMerged += 1
            return merged[nextMerged - 1]
        }
        for _ in 1..<leaves.count {
            let a = takeLightest()
            let b = takeLightest()
            let node = weight.count
            weight.append(weight[a] + weight[b])
            parent.append(-1)
            parent[a] = node
            parent[b] = node
            merged.append(node)
        }
        for symbol in leaves {
            var depth = 0
            var node = symbol
            while parent[node] >= 0 {
                node = parent[node]
                depth += 1
            }
            lengths[symbol] = UInt8(min(depth, 255))
        }
        return lengths
    }

    /// Canonical codes for code lengths, bit-reversed for deflate's least-significant-first order.
    static func canonicalCodes(for lengths: [UInt8]) -> [UInt16] {
        var countOfLength = [Int](repeating: 0, count: 16)
        for l in lengths where l > 0 { countOfLength[Int(l)] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1..<16 {
            code = (code + countOfLength[bits - 1]) << 1
            next[bits] = code
        }
        var codes = [UInt16](repeating: 0, count: lengths.count)
        for (symbol, l) in lengths.enumerated() where l > 0 {
            let value = next[Int(l)]
            next[Int(l)] += 1
            var reversed = 0
            for bit in 0..<Int(l) where value & (1 << bit) != 0 { reversed |= 1 << (Int(l) - 1 - bit) }
            codes[symbol] = UInt16(reversed)
        }
        return codes
    }
}

/// Packs bits least-significant first into bytes, as deflate wants them, 32 bits at a time
/// into a buffer it owns (grown if ever too small).
struct BitWriter: ~Copyable {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private var used = 0
    private var buffer: UInt64 = 0
    private var count = 0

    init(capacity: Int) {
        self.capacity = max(64, capacity)
        storage = .allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit { storage.deallocate() }

    /// Appends the low `bits` bits of `value` (at most 32).
    @inline(__always)
    mutating func write(_ value: UInt64, bits: Int) {
        buffer |= value << UInt64(count)
        count += bits
        if count >= 32 {
            if used + 4 > capacity { grow() }
            storage.storeBytes(of: UInt32(truncatingIfNeeded: buffer).littleEndian, toByteOffset: used, as: UInt32.self)
            used += 4
            buffer >>= 32
            count -= 32
        }
    }

    private mutating func grow() {
        let larger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 8)
        larger.copyMemory(from: storage, byteCount: used)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }

    /// Pads with zero bits to a whole byte.
    mutating func alignToByte() {
        let pad = (8 - count % 8) % 8
        if pad > 0 { write(0, bits: pad) }
    }

    /// The bytes written.
    consuming func finish() -> [UInt8] {
        alignToByte()
        var tail: [UInt8] = []
        while count > 0 {
            tail.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
        return [UInt8](UnsafeRawBufferPointer(start: storage, count: used)) + tail
    }
}

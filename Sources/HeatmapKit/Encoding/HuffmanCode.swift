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
    static func unlimitedLengths(for counts: [Int]) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: counts.count)
        // Nodes: leaves 0..<n, then internal nodes; parent links give depths.
        var weight: [Int] = counts
        var parent = [Int](repeating: -1, count: counts.count)
        var heap = MinHeap()
        for (symbol, count) in counts.enumerated() where count > 0 { heap.push((count, symbol)) }
        if heap.count == 1, let only = heap.pop() {
            lengths[only.1] = 1
            return lengths
        }
        while heap.count > 1 {
            guard let a = heap.pop(), let b = heap.pop() else { break }
            let node = weight.count
            weight.append(a.0 + b.0)
            parent.append(-1)
            parent[a.1] = node
            parent[b.1] = node
            heap.push((a.0 + b.0, node))
        }
        for symbol in 0..<counts.count where counts[symbol] > 0 {
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

    /// A binary min-heap of (weight, node), ties broken by node for determinism.
    struct MinHeap {
        private var items: [(Int, Int)] = []
        var count: Int { items.count }

        mutating func push(_ item: (Int, Int)) {
            items.append(item)
            var i = items.count - 1
            while i > 0 {
                let p = (i - 1) / 2
                guard items[i] < items[p] else { break }
                items.swapAt(i, p)
                i = p
            }
        }

        mutating func pop() -> (Int, Int)? {
            guard let last = items.popLast() else { return nil }
            guard !items.isEmpty else { return last }
            let top = items[0]
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1
                let r = l + 1
                var m = i
                if l < items.count && items[l] < items[m] { m = l }
                if r < items.count && items[r] < items[m] { m = r }
                if m == i { break }
                items.swapAt(i, m)
                i = m
            }
            return top
        }
    }
}

/// Packs bits least-significant first into bytes, as deflate wants them.
struct BitWriter {
    private var bytes: [UInt8]
    private var buffer: UInt64 = 0
    private var count = 0

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends the low `bits` bits of `value` (at most 32).
    @inline(__always)
    mutating func write(_ value: UInt64, bits: Int) {
        buffer |= value << UInt64(count)
        count += bits
        if count >= 32 {
            let word = UInt32(truncatingIfNeeded: buffer)
            withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
            buffer >>= 32
            count -= 32
        }
    }

    /// Pads with zero bits to a whole byte.
    mutating func alignToByte() {
        let pad = (8 - count % 8) % 8
        if pad > 0 { write(0, bits: pad) }
    }

    /// The bytes written.
    mutating func finish() -> [UInt8] {
        alignToByte()
        while count > 0 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
        return bytes
    }
}

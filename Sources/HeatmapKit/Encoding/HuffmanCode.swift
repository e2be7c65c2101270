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

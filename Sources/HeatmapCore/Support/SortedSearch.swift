/// Searches in ascending keys (the index's Morton keys, a summary's entries, run starts).
extension UnsafeBufferPointer where Element: Comparable {
    /// The first index in `range` whose key is at least `key` (`range.upperBound` if none),
    /// by bisection.
    ///
    /// - Complexity: O(log range.count).
    @inline(__always)
    func firstIndex(atLeast key: Element, in range: Range<Int>) -> Int {
        var low = range.lowerBound
        var size = range.count
        while size > 0 {
            let half = size / 2
            if self[low + half] < key {
                low += half + 1
                size -= half + 1
            } else {
                size = half
            }
        }
        return low
    }

    /// The first index in `start..<end` whose key is at least `key` (`end` if none): doubling
    /// steps outward from `start`, then bisection, for answers expected near `start`.
    ///
    /// - Complexity: O(log d) for an answer d places from `start`.
    @inline(__always)
    func firstIndex(atLeast key: Element, from start: Int, before end: Int) -> Int {
        var low = start
        var high = start
        var step = 1
        while high < end && self[high] < key {
            low = high + 1
            high = Swift.min(end, high + step)
            step <<= 1
        }
        return firstIndex(atLeast: key, in: low..<high)
    }

    /// ``firstIndex(atLeast:from:before:)`` up to the end of the buffer.
    @inline(__always)
    func firstIndex(atLeast key: Element, from start: Int) -> Int {
        firstIndex(atLeast: key, from: start, before: count)
    }
}

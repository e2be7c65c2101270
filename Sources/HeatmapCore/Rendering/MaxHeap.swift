/// A binary max-heap.
struct MaxHeap<Element: Comparable> {
    private var items: [Element] = []

    var isEmpty: Bool { items.isEmpty }

    /// Adds an element. - Complexity: O(log n).
    mutating func push(_ element: Element) {
        items.append(element)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[parent] < items[i] else { break }
            items.swapAt(parent, i)
            i = parent
        }
    }

    /// Removes and returns the largest element. - Complexity: O(log n).
    mutating func pop() -> Element? {
        guard let last = items.popLast() else { return nil }
        guard !items.isEmpty else { return last }
        let top = items[0]
        items[0] = last
        var i = 0
        while true {
            let left = 2 * i + 1
            let right = left + 1
            var largest = i
            if left < items.count && items[largest] < items[left] { largest = left }
            if right < items.count && items[largest] < items[right] { largest = right }
            if largest == i { break }
            items.swapAt(i, largest)
            i = largest
        }
        return top
    }
}

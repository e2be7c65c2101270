/// The exact pass's rectangles of M(z)'s search.
extension MaximumSearch {
    /// `regions` (highest bound first), each neighbour joined to the first before it whose
    /// rectangle, with both, stays at most `side` pixels a side and costs no more to compute
    /// than the two apart (padded by the kernel's reach: the pixels read); still highest bound
    /// first. A cluster split by the 256-pixel grid is then one statement, not two to four
    /// reading the same padding.
    static func joined(_ regions: [(rect: PixelRect, bound: Float)], side: Int, padding: Int)
        -> [(rect: PixelRect, bound: Float)]
    {
        func cost(_ rect: PixelRect) -> Int { (rect.width + 2 * padding) * (rect.height + 2 * padding) }
        var joined: [(rect: PixelRect, bound: Float)] = []
        for region in regions {
            let into = joined.firstIndex {
                let union = $0.rect.union(region.rect)
                return union.width <= side && union.height <= side
                    && cost(union) <= cost($0.rect) + cost(region.rect)
            }
            if let into {
                joined[into].rect = joined[into].rect.union(region.rect)
            } else {
                joined.append(region)
            }
        }
        return joined
    }
}

extension PixelRect {
    /// Whether every pixel of `other` (inside the world) lies in this rectangle (whose columns
    /// may run past the world's edges; they wrap).
    func contains(_ other: PixelRect, worldSize world: Int) -> Bool {
        guard y <= other.y, other.y + other.height <= y + height else { return false }
        return [-world, 0, world].contains { offset in
            x <= other.x + offset && other.x + other.width + offset <= x + width
        }
    }
}

/// An immutable index of weighted points for rendering tiles at any zoom.
///
/// Points are kept in fixed-point world units (see ``WebMercator``) sorted along a Z-order
/// curve, with running sums of weight: every aligned square of the world is one slice of
/// the arrays, and its total weight is one subtraction. A tile therefore costs a walk over
/// the occupied pixels (or the few points) near it, never a scan of all points.
///
/// Memory: 20 bytes a point (an 8-byte key, a 4-byte weight and an 8-byte running sum).
public struct PointIndex: Sendable {
    /// Morton keys of the points' unit positions, ascending.
    let keys: [UInt64]
    /// The points' weights, in the order of `keys`.
    let weights: [Float]
    /// `prefix[i]` is the sum of `weights[0..<i]`; `prefix.count == keys.count + 1`.
    let prefix: [Double]

    /// The number of points indexed.
    public var count: Int { keys.count }
    /// The sum of all weights.
    public var totalWeight: Double { prefix[prefix.count - 1] }

    /// Builds the index of a list of points.
    ///
    /// - Throws: ``HeatmapError/invalidPoint(index:reason:)`` for the first point with a
    ///   latitude that is not a number in -90...90, a longitude that is not finite, or an
    ///   intensity that is not finite and at least 0 (or too large for 32-bit floats).
    /// - Complexity: O(n) (a radix sort).
    public init(points: [WeightedLatLng]) throws(HeatmapError) {
        var keys = [UInt64](repeating: 0, count: points.count)
        var weights = [Float](repeating: 0, count: points.count)
        for (i, point) in points.enumerated() {
            let c = point.coordinate
            guard c.latitude.isFinite, (-90...90).contains(c.latitude) else {
                throw .invalidPoint(index: i, reason: "latitude \(c.latitude) is outside -90...90")
            }
            guard c.longitude.isFinite else {
                throw .invalidPoint(index: i, reason: "longitude \(c.longitude) is not a finite number")
            }
            let w = point.intensity
            guard w.isFinite, w >= 0, w <= Double(Float.greatestFiniteMagnitude) else {
                throw .invalidPoint(index: i, reason: "intensity \(w) is not a finite number ≥ 0")
            }
            keys[i] = Morton.key(
                x: WebMercator.unitX(longitude: c.longitude), y: WebMercator.unitY(latitude: c.latitude))
            weights[i] = Float(w)
        }
        self.init(unsortedKeys: keys, weights: weights)
    }

    /// Builds the index from Morton keys and weights in any order.
    init(unsortedKeys: [UInt64], weights: [Float]) {
        var keys = unsortedKeys
        var weights = weights
        RadixSort.sort(keys: &keys, weights: &weights)
        var prefix = [Double](repeating: 0, count: keys.count + 1)
        var sum = 0.0
        for i in 0..<weights.count {
            sum += Double(weights[i])
            prefix[i + 1] = sum
        }
        self.keys = keys
        self.weights = weights
        self.prefix = prefix
    }
}

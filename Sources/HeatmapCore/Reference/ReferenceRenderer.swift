/// The definition of the heatmap computed the plain way: every point, no index, in double
/// precision. The tests check the engine against it and the benchmark measures the engine's
/// lead over it; it is far too slow for anything else.
package enum ReferenceRenderer {
    /// The intensity of every pixel of `rect` (row-major, north row first), summing
    /// w · k(px − qx) · k(py − qy) over every point within reach `radius` (pixels), the world
    /// wrapping east-west.
    ///
    /// - Complexity: O(n + points within reach × (2R + 1)²).
    public static func intensity(of points: [WeightedLatLng], in rect: PixelRect, space: PixelSpace, radius: Int)
        -> [Double]
    {
        var out = [Double](repeating: 0, count: max(0, rect.width * rect.height))
        let world = space.worldSize
        let kernel = GaussianKernel(radius: radius)
        let taps = (0...radius).map { kernel.value(at: $0) }
        for point in points where point.intensity > 0 {
            let (qx, qy) = space.pixel(of: point.coordinate)
            let top = max(rect.y, qy - radius)
            let bottom = min(rect.y + rect.height - 1, qy + radius)
            guard top <= bottom else { continue }
            for copy in -2...2 {
                let cx = qx + copy * world
                let left = max(rect.x, cx - radius)
                let right = min(rect.x + rect.width - 1, cx + radius)
                guard left <= right else { continue }
                for py in top...bottom {
                    let ky = taps[abs(py - qy)] * point.intensity
                    let row = (py - rect.y) * rect.width - rect.x
                    for px in left...right { out[row + px] += ky * taps[abs(px - cx)] }
                }
            }
        }
        return out
    }

    /// The largest intensity over the whole world, by stamping every point into a map of
    /// the pixels it reaches.
    ///
    /// - Complexity: O(n · (2R + 1)²) time and memory.
    public static func maximum(of points: [WeightedLatLng], space: PixelSpace, radius: Int) -> Double {
        var pixels: [Int: Double] = [:]
        let world = space.worldSize
        let kernel = GaussianKernel(radius: radius)
        let taps = (0...radius).map { kernel.value(at: $0) }
        for point in points where point.intensity > 0 {
            let (qx, qy) = space.pixel(of: point.coordinate)
            for py in max(0, qy - radius)..<min(world, qy + radius + 1) {
                let ky = taps[abs(py - qy)] * point.intensity
                for dx in -radius...radius {
                    let px = ((qx + dx) % world + world) % world
                    pixels[py * world + px, default: 0] += ky * taps[abs(dx)]
                }
            }
        }
        return pixels.values.max() ?? 0
    }
}

import Foundation
import HeatmapCore

/// The definition, computed the slow way: every point, no index, in double precision.
enum BruteForce {
    /// The intensity of every pixel of `rect` (row-major), as README defines it.
    static func intensity(of points: [WeightedLatLng], in rect: PixelRect, space: PixelSpace, radius: Int) -> [Double] {
        var out = [Double](repeating: 0, count: rect.width * rect.height)
        let world = space.worldSize
        let sigma = Double(radius) / 3
        let kernel = (0...radius).map { t in exp(-Double(t * t) / (2 * sigma * sigma)) }
        for point in points where point.intensity > 0 {
            let qx = space.pixel(ofUnit: UInt64(WebMercator.unitX(longitude: point.coordinate.longitude)))
            let qy = space.pixel(ofUnit: UInt64(WebMercator.unitY(latitude: point.coordinate.latitude)))
            let top = max(rect.y, qy - radius)
            let bottom = min(rect.y + rect.height - 1, qy + radius)
            guard top <= bottom else { continue }
            for copy in -2...2 {
                let cx = qx + copy * world
                let left = max(rect.x, cx - radius)
                let right = min(rect.x + rect.width - 1, cx + radius)
                guard left <= right else { continue }
                for py in top...bottom {
                    let ky = kernel[abs(py - qy)] * point.intensity
                    for px in left...right {
                        out[(py - rect.y) * rect.width + (px - rect.x)] += ky * kernel[abs(px - cx)]
                    }
                }
            }
        }
        return out
    }

    /// The largest intensity over the whole world, by stamping every point into a map of pixels.
    static func maximum(of points: [WeightedLatLng], space: PixelSpace, radius: Int) -> Double {
        var pixels: [Int: Double] = [:]
        let world = space.worldSize
        let sigma = Double(radius) / 3
        let kernel = (0...radius).map { t in exp(-Double(t * t) / (2 * sigma * sigma)) }
        for point in points where point.intensity > 0 {
            let qx = space.pixel(ofUnit: UInt64(WebMercator.unitX(longitude: point.coordinate.longitude)))
            let qy = space.pixel(ofUnit: UInt64(WebMercator.unitY(latitude: point.coordinate.latitude)))
            for py in max(0, qy - radius)..<min(world, qy + radius + 1) {
                let ky = kernel[abs(py - qy)] * point.intensity
                for dx in -radius...radius {
                    let px = ((qx + dx) % world + world) % world
                    pixels[py * world + px, default: 0] += ky * kernel[abs(dx)]
                }
            }
        }
        return pixels.values.max() ?? 0
    }
}

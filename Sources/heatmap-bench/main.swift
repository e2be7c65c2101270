import Foundation
import HeatmapKit

struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

let n = Int(CommandLine.arguments.dropFirst().first ?? "1000000") ?? 1_000_000
var rng = SplitMix(state: 1)
let centres = (0..<20).map { _ in (Double.random(in: 30...50, using: &rng), Double.random(in: -120 ... -75, using: &rng), Double.random(in: 0.05...2, using: &rng)) }
var points: [WeightedLatLng] = []
points.reserveCapacity(n)
for i in 0..<n {
    let w = Double.random(in: 0.5...2, using: &rng)
    if i % 10 == 0 {
        points.append(WeightedLatLng(coordinate: Coordinate(latitude: Double.random(in: 25...50, using: &rng), longitude: Double.random(in: -125 ... -70, using: &rng)), intensity: w))
    } else {
        let c = centres[Int.random(in: 0..<centres.count, using: &rng)]
        // Box-Muller
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &rng), u2 = Double.random(in: 0..<1, using: &rng)
        let r = (-2 * log(u1)).squareRoot() * c.2
        points.append(WeightedLatLng(coordinate: Coordinate(latitude: max(-90, min(90, c.0 + r * cos(2 * .pi * u2))), longitude: c.1 + r * sin(2 * .pi * u2)), intensity: w))
    }
}
var t = now()
let index = try PointIndex(points: points)
print("index build \(n): \(now() - t) s")
for zoom in [3, 6, 9, 12, 16] {
    for scale in [1, 2] {
        let space = try PixelSpace(zoom: zoom, scale: scale)
        let kernel = GaussianKernel(radius: 20 * scale)
        t = now()
        let m = index.maximumIntensity(space: space, kernel: kernel)
        let tm = now() - t
        // densest tile: the tile of the first cluster centre
        let c = centres[0]
        let px = space.pixel(ofUnit: UInt64(WebMercator.unitX(longitude: c.1)))
        let py = space.pixel(ofUnit: UInt64(WebMercator.unitY(latitude: c.0)))
        let rect = PixelRect(tileX: px / space.tileSize, y: py / space.tileSize, in: space)
        t = now()
        var grid = index.intensity(in: rect, space: space, kernel: kernel)
        for _ in 0..<9 { grid = index.intensity(in: rect, space: space, kernel: kernel) }
        let tr = (now() - t) / 10
        let map = ColorMap(gradient: .default, opacity: 0.7)
        t = now()
        let image = map.colorize(grid, maximum: Double(m))
        let tc = now() - t
        t = now()
        let png = try PNGEncoder().encode(image)
        let te = now() - t
        print(String(format: "z%2d s%d  M %.3f in %.1f ms; tile intensity %.2f ms, colour %.2f ms, encode %.2f ms (%d bytes)", zoom, scale, m, tm * 1000, tr * 1000, tc * 1000, te * 1000, png.count))
    }
}

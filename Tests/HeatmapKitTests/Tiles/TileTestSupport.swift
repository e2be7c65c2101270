import Dispatch
import Foundation
import HeatmapKit
import HeatmapTestSupport

/// Runs blocking code (a synchronous tile request) on a dispatch thread, not on the pool of
/// Swift's tasks, whose few threads it would otherwise hold.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}

/// A synthetic base tile: colours and alpha varying over the tile, different for every tile,
/// with partly transparent pixels, so that compositing is tested on every kind of pixel.
func syntheticTile(x: Int, y: Int, zoom: Int, side: Int = 256) -> RGBAImage {
    var pixels = [UInt8](repeating: 0, count: side * side * 4)
    for row in 0..<side {
        for column in 0..<side {
            let i = (row * side + column) * 4
            pixels[i] = UInt8(truncatingIfNeeded: column &+ 37 &* x)
            pixels[i + 1] = UInt8(truncatingIfNeeded: row &+ 53 &* y)
            pixels[i + 2] = UInt8(truncatingIfNeeded: (column ^ row) &+ 11 &* zoom)
            let alphas: [UInt8] = [255, 255, 200, 128, 1, 0, 254, 77]
            pixels[i + 3] = alphas[(column / 16 + row / 16 + x + y) % alphas.count]
        }
    }
    return RGBAImage(width: side, height: side, pixels: pixels) ?? RGBAImage(transparentWidth: side, height: side)
}

/// Writes synthetic base tiles `zoom/x/y.png` for the given tiles, returning a `file://` template.
func writeSyntheticBase(in folder: TemporaryFolder, zoom: Int, tiles: [(x: Int, y: Int)], side: Int = 256) throws
    -> String
{
    for tile in tiles {
        let png = try PNGEncoder().encode(syntheticTile(x: tile.x, y: tile.y, zoom: zoom, side: side))
        try folder.write(png, to: "\(zoom)/\(tile.x)/\(tile.y).png")
    }
    return "file://\(folder.path)/{z}/{x}/{y}.png"
}

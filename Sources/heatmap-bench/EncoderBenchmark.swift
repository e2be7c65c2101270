import HeatmapCore
import HeatmapKit

/// PNG size and time for the encoder settings worth keeping, on real tiles.
enum EncoderBenchmark {
    static let settings: [(String, PNGEncoder)] = [
        ("up, run-length deflate (default)", PNGEncoder()),
        ("up, zlib level 1", PNGEncoder(filter: .up, compressionLevel: .fastest, compressor: .zlib)),
        ("sub, level 1", PNGEncoder(filter: .sub, compressionLevel: .fastest, compressor: .zlib)),
        ("adaptive, level 1", PNGEncoder(filter: .adaptive, compressionLevel: .fastest, compressor: .zlib)),
        ("up, level 6", PNGEncoder(filter: .up, compressionLevel: .zlibDefault, compressor: .zlib)),
        ("up, level 9", PNGEncoder(filter: .up, compressionLevel: .smallest, compressor: .zlib)),
    ]

    static func measure(bench: TileBenchmark, tiles: [(Int, Int, Int)], repetitions: Int) throws -> [EncoderMeasurement]
    {
        var results: [EncoderMeasurement] = []
        for (zoom, x, y) in tiles {
            let space = try PixelSpace(zoom: zoom, scale: 2)
            let kernel = GaussianKernel(radius: 40)
            let grid = bench.index.intensity(in: PixelRect(tileX: x, y: y, in: space), space: space, kernel: kernel)
            let image = ColorMap(gradient: .default, opacity: 0.7).colorize(
                grid, maximum: Double(bench.index.maximumIntensity(space: space, kernel: kernel)))
            for (name, encoder) in settings {
                var bytes = 0
                let times = try (0..<repetitions).map { _ in
                    try Measure.seconds { bytes = try encoder.encode(image).count } * 1000
                }
                results.append(
                    EncoderMeasurement(
                        setting: name, tile: "\(zoom)/\(x)/\(y)@2x", bytes: bytes, milliseconds: Measure.median(times)))
            }
        }
        return results
    }
}

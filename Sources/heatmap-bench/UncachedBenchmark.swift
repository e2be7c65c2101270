import Dispatch
import Foundation
import HeatmapCore
import HeatmapKit
import Synchronization

/// One tile drawn as `heatmap serve` draws it with its cache off: `HeatmapTileLayer.tileFor`
/// with the layer's cache off, on one thread (medians of the repetitions, milliseconds).
struct UncachedTileMeasurement: Codable {
    var tile: String
    var cpuMs: Double
    var wallMs: Double
    var meanCPUMs: Double
    var minimumCPUMs: Double
    var pngBytes: Int
    var repetitions: Int
    /// The sleep before each render, ms (`--uncached-pause-ms`).
    var pauseMs: Int?
    /// The render thread's minor page faults per render (median), and its CPU time in the kernel.
    var minorFaults: Double?
    var systemCPUMs: Double?
}

/// The tiles `heatmap serve` is compared with (`--only uncached`; `scripts/bench/uncached_bench.py`).
struct UncachedMeasurement: Codable {
    var points: Int
    var tiles: [UncachedTileMeasurement]
    /// The zoom and scale of the throughput pass: every tile with data within reach there.
    var throughputZoom: Int
    var throughputScale: Int
    var throughputTiles: [String]
    var threads: Int
    var tilesPerSecond: Double
    var seconds: Double
    /// The process's CPU time (user and system) over the throughput pass, per tile.
    var cpuMsPerTile: Double
}

/// Measures tiles through the layer, as the server's render threads call it.
enum UncachedBenchmark {
    /// `tiles` as `Z/X/Y[@2x]`; without any, the dense and sparse tiles of zoom 16 at 512 px,
    /// the dense one of zoom 10 at 512 px and 0/0/0@2x.
    static func measure(
        bench: TileBenchmark, tiles names: [String], zoom: Int, scale: Int, limit: Int, repetitions: Int,
        pauseMs: Int = 0
    ) throws -> UncachedMeasurement {
        let layer = HeatmapTileLayer(index: bench.index, cacheBytes: 0)
        var tiles = try names.map(parse)
        if tiles.isEmpty {
            let z16 = try bench.tiles(zoom: 16, scale: 2)
            let z10 = try bench.tiles(zoom: 10, scale: 2)
            tiles = z16.map { (16, $0.x, $0.y, 2) } + z10.prefix(1).map { (10, $0.x, $0.y, 2) } + [(0, 0, 0, 2)]
        }
        var measured: [UncachedTileMeasurement] = []
        for (z, x, y, s) in tiles {
            var bytes = (try layer.tileFor(x: x, y: y, zoom: z, scale: s)).png?.count ?? 0  // M(z) first
            var cpu: [Double] = []
            var wall: [Double] = []
            var faults: [Double] = []
            var system: [Double] = []
            for _ in 0..<repetitions {
                if pauseMs > 0 { usleep(UInt32(pauseMs) * 1000) }
                let usage = ThreadUsage.now()
                let (startWall, startCPU) = (Measure.now(), threadCPUSeconds())
                let result = try layer.tileFor(x: x, y: y, zoom: z, scale: s)
                cpu.append((threadCPUSeconds() - startCPU) * 1000)
                wall.append((Measure.now() - startWall) * 1000)
                let used = ThreadUsage.now() - usage
                faults.append(Double(used.minorFaults))
                system.append(used.systemSeconds * 1000)
                bytes = result.png?.count ?? 0
            }
            measured.append(
                UncachedTileMeasurement(
                    tile: name(z, x, y, s), cpuMs: Measure.median(cpu), wallMs: Measure.median(wall),
                    meanCPUMs: cpu.reduce(0, +) / Double(max(1, cpu.count)), minimumCPUMs: cpu.min() ?? 0,
                    pngBytes: bytes, repetitions: repetitions, pauseMs: pauseMs, minorFaults: Measure.median(faults),
                    systemCPUMs: Measure.median(system)))
        }
        let found = try throughputTiles(index: bench.index, zoom: zoom, scale: scale)
        // At most `limit` of them, evenly spread over the list (north to south).
        let pass = found.count <= limit ? found : (0..<limit).map { found[$0 * found.count / limit] }
        _ = try layer.normalization(zoom: zoom, scale: scale)
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let failures = Atomic<Int>(0)
        let cpu = processCPUSeconds()
        let seconds = Measure.seconds {
            DispatchQueue.concurrentPerform(iterations: pass.count) { i in
                if (try? layer.tileFor(x: pass[i].0, y: pass[i].1, zoom: zoom, scale: scale)) == nil {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        return UncachedMeasurement(
            points: bench.index.count, tiles: measured, throughputZoom: zoom, throughputScale: scale,
            throughputTiles: pass.map { name(zoom, $0.0, $0.1, scale) }, threads: threads,
            tilesPerSecond: Double(pass.count - failures.load(ordering: .relaxed)) / seconds, seconds: seconds,
            cpuMsPerTile: (processCPUSeconds() - cpu) * 1000 / Double(max(1, pass.count)))
    }

    /// Every tile of a zoom with weight within the kernel's reach.
    static func throughputTiles(index: PointIndex, zoom: Int, scale: Int) throws -> [(Int, Int)] {
        let space = try PixelSpace(zoom: zoom, scale: scale)
        var found: [(Int, Int)] = []
        for y in 0..<space.tilesAcross {
            for x in 0..<space.tilesAcross
            where index.weight(in: PixelRect(tileX: x, y: y, in: space).expanded(by: 20 * scale), space: space) > 0 {
                found.append((x, y))
            }
        }
        return found
    }

    static func name(_ z: Int, _ x: Int, _ y: Int, _ s: Int) -> String { "\(z)/\(x)/\(y)\(s > 1 ? "@\(s)x" : "")" }

    /// `Z/X/Y` with an optional `@2x` or `@3x`.
    static func parse(_ text: String) throws(OptionError) -> (Int, Int, Int, Int) {
        var body = Substring(text)
        var scale = 1
        if let at = body.firstIndex(of: "@") {
            guard let s = Int(body[body.index(after: at)...].dropLast()), (1...3).contains(s), body.hasSuffix("x")
            else { throw OptionError("tile \(text): expected Z/X/Y, Z/X/Y@2x or Z/X/Y@3x") }
            scale = s
            body = body[..<at]
        }
        let parts = body.split(separator: "/").map { Int($0) }
        guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2], (0...22).contains(z),
            (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y)
        else { throw OptionError("tile \(text): expected Z/X/Y with zoom 0...22 and X, Y on its grid") }
        return (z, x, y, scale)
    }

    /// The process's user and system CPU time, seconds.
    static func processCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    /// The calling thread's CPU time, seconds.
    static func threadCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }
}

import Foundation
import HeatmapKit
import Synchronization

/// Renders every tile of a ``PyramidWalk`` on `jobs` threads into a ``TileSink``.
///
/// The render threads take tiles from the walk and ask one ``TileLayer`` for them (a heatmap
/// computes M(z) once a zoom; a stack composites its layers; the bytes equal `tileFor`'s); the
/// calling thread is the writer. Between them a ``TileQueue`` of at most ``queueCapacity(jobs:)``
/// encoded tiles bounds memory: rendering waits only when the disk falls that far behind.
/// The writer makes the sink's tiles durable at least once a second (``TileSink/checkpoint()``).
public struct PyramidRenderer: Sendable {
    /// The layer that draws the tiles (its own cache is not needed: use `cacheBytes: 0`).
    package var layer: any TileLayer
    /// The tiles.
    package var walk: PyramidWalk
    /// Pixels per point.
    package var scale: Int
    /// Render threads.
    package var jobs: Int
    /// Turns each tile's PNG into the bytes stored (a WebP, say), on the render threads; `nil`
    /// (the default) stores the PNG. Its error fails the render, naming the tile.
    package var transcode: (@Sendable ([UInt8]) throws -> [UInt8])? = nil

    /// Creates a renderer.
    public init(layer: any TileLayer, walk: PyramidWalk, scale: Int, jobs: Int) {
        self.layer = layer
        self.walk = walk
        self.scale = scale
        self.jobs = max(1, jobs)
    }

    /// The most encoded tiles waiting for the writer: 4 a thread, at least 16.
    package static func queueCapacity(jobs: Int) -> Int { max(16, 4 * jobs) }

    private enum Item: Sendable {
        case tile(TileCoordinate, [UInt8])
        case failed(String)
        case finished
    }

    /// Renders into the archive at `path` (`.mbtiles`, `.pmtiles`, or a folder: ``TileArchive/kind(of:)``)
    /// with `metadata`: `mode` says whether an existing archive is refused (`.create`), replaced
    /// (`.overwrite`) or completed (`.resume`, skipping the tiles it holds). Renders until the
    /// walk ends or `progress` asks to stop; then finishes the archive (or, when stopped, keeps
    /// what it can).
    ///
    /// - Throws: ``RenderFailure`` when the archive cannot be opened, a tile cannot be drawn or
    ///   the archive cannot be written.
    public func render(
        to path: String, metadata: TileMetadata, mode: OutputMode = .create, progress: RenderProgress = RenderProgress()
    ) throws(RenderFailure) -> RenderSummary {
        let sink: any TileSink
        do {
            sink = try TileArchive.writer(path, metadata: metadata, mode: mode)
        } catch {
            throw RenderFailure(
                reason: error.description,
                summary: RenderSummary(
                    written: 0, empty: 0, resumed: 0, bytes: 0, seconds: 0, interrupted: false, kept: false))
        }
        return try render(into: sink, progress: progress)
    }

    /// Renders into `sink`, skipping the tiles it holds already, until the walk ends or
    /// `progress` asks to stop; then finishes the sink (or, when stopped, keeps what it can).
    ///
    /// - Throws: ``RenderFailure`` when a tile cannot be drawn or the sink cannot write.
    package func render(into sink: some TileSink, progress: RenderProgress) throws(RenderFailure) -> RenderSummary {
        let clock = ContinuousClock()
        let start = clock.now
        func summary(interrupted: Bool, kept: Bool) -> RenderSummary {
            let elapsed = clock.now - start
            return RenderSummary(
                written: progress.written.load(ordering: .relaxed), empty: progress.empty.load(ordering: .relaxed),
                resumed: progress.resumed.load(ordering: .relaxed), bytes: sink.bytesWritten,
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
                interrupted: interrupted, kept: kept, committed: sink.committedTiles)
        }
        let stored: Set<TileCoordinate>
        do {
            stored = try sink.storedTiles()
        } catch {
            throw RenderFailure(reason: error.description, summary: summary(interrupted: false, kept: sink.stop()))
        }
        let queue = TileQueue<Item>(capacity: Self.queueCapacity(jobs: jobs))
        let shared = SharedWalk(walk)
        for _ in 0..<jobs {
            let thread = Thread { [layer, scale, transcode] in
                Self.work(
                    layer: layer, walk: shared, scale: scale, transcode: transcode, stored: stored, queue: queue,
                    progress: progress)
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        var running = jobs
        var failure: String?
        var lastCheckpoint = clock.now
        while running > 0 {
            guard let item = queue.pop(timeout: 0.5) else {
                if failure == nil, clock.now - lastCheckpoint > .seconds(1) {
                    do {
                        try sink.checkpoint()
                    } catch {
                        failure = error.description
                        progress.requestStop()
                    }
                    lastCheckpoint = clock.now
                }
                continue
            }
            switch item {
            case .finished: running -= 1
            case .failed(let reason):
                if failure == nil { failure = reason }
                progress.requestStop()
            case .tile(let tile, let bytes):
                guard failure == nil else { continue }  // drain, so the render threads can end
                do {
                    let before = sink.bytesWritten
                    try sink.write(tile, data: bytes)
                    progress.written.add(1, ordering: .relaxed)
                    progress.bytes.add(sink.bytesWritten - before, ordering: .relaxed)
                    if clock.now - lastCheckpoint > .seconds(1) {
                        try sink.checkpoint()
                        lastCheckpoint = clock.now
                    }
                } catch {
                    failure = error.description
                    progress.requestStop()
                }
            }
        }
        if let failure {
            throw RenderFailure(reason: failure, summary: summary(interrupted: true, kept: sink.stop()))
        }
        if progress.isStopping { return summary(interrupted: true, kept: sink.stop()) }
        do {
            try sink.finish()
        } catch {
            throw RenderFailure(reason: error.description, summary: summary(interrupted: false, kept: sink.stop()))
        }
        return summary(interrupted: false, kept: true)
    }

    private static func work(
        layer: any TileLayer, walk: SharedWalk, scale: Int, transcode: (@Sendable ([UInt8]) throws -> [UInt8])?,
        stored: Set<TileCoordinate>, queue: TileQueue<Item>, progress: RenderProgress
    ) {
        defer { queue.push(.finished) }
        while !progress.isStopping {
            guard let tile = walk.next() else {
                if let failure = walk.failure { queue.push(.failed("finding the tiles: \(failure.description)")) }
                return
            }
            if stored.contains(tile) {
                progress.resumed.add(1, ordering: .relaxed)
                continue
            }
            do {
                switch try layer.tileFor(TileRequest(x: tile.x, y: tile.y, zoom: tile.zoom, scale: scale)) {
                case .image(let png): queue.push(.tile(tile, try transcode?(png) ?? png))
                case .noTile: progress.empty.add(1, ordering: .relaxed)
                case .notAvailableYet:
                    // Never stored as empty: a tile an upstream did not give is not known to be empty.
                    queue.push(.failed("tile \(tile): layer \(layer.name) has it not available yet (its upstream?)"))
                    return
                }
            } catch {
                queue.push(.failed("tile \(tile): \(error)"))
                return
            }
        }
    }
}

/// The walk the render threads share, one step at a time.
private final class SharedWalk: Sendable {
    private let walk: Mutex<PyramidWalk>

    init(_ walk: PyramidWalk) { self.walk = Mutex(walk) }

    func next() -> TileCoordinate? { walk.withLock { $0.next() } }

    /// Why the walk ended early, if it did (see ``PyramidWalk/failure``).
    var failure: HeatmapError? { walk.withLock { $0.failure } }
}

import Foundation
import HeatmapCore
import HeatmapKit
import HeatmapTestSupport
import HeatmapTiles
import Testing

/// Interrupted renders keep what was finished, and resuming gives the tiles of one whole render.
@Suite struct RenderResumeTests {
    /// A sink that asks the render to stop after some tiles, as Ctrl-C does.
    final class Interrupting: TileSink {
        let sink: any TileSink
        let progress: RenderProgress
        let after: Int
        var count = 0

        init(_ sink: any TileSink, progress: RenderProgress, after: Int) {
            self.sink = sink
            self.progress = progress
            self.after = after
        }

        func storedTiles() throws(TileArchiveError) -> Set<TileCoordinate> { try sink.storedTiles() }
        func write(_ tile: TileCoordinate, data: [UInt8]) throws(TileArchiveError) {
            try sink.write(tile, data: data)
            count += 1
            if count == after { progress.requestStop() }
        }
        func checkpoint() throws(TileArchiveError) { try sink.checkpoint() }
        func finish() throws(TileArchiveError) { try sink.finish() }
        func stop() -> Bool { sink.stop() }
        var bytesWritten: Int { sink.bytesWritten }
    }

    static func renderer(jobs: Int) throws -> PyramidRenderer {
        let index = try PointIndex(points: Fixtures.policeStations)
        let walk = try PyramidWalk(index: index, zooms: 0...8, scale: 1, radius: 20)
        return PyramidRenderer(layer: HeatmapTileLayer(index: index, cacheBytes: 0), walk: walk, scale: 1, jobs: jobs)
    }

    static func tiles(_ reader: any TileArchiveReader, like expected: [TileCoordinate: [UInt8]]) throws -> Int {
        var found = 0
        for (tile, png) in expected {
            guard let stored = try reader.tileData(z: tile.zoom, x: tile.x, y: tile.y) else { continue }
            #expect(stored == png)
            found += 1
        }
        return found
    }

    @Test(
        "MBTiles and folders: stopped, they hold the tiles finished; resumed, every tile",
        arguments: ["mbtiles", "folder"])
    func resume(kind: String) throws {
        // The renderer's layer has the library's settings (Google's 1,000-entry map), not the command's.
        let expected = try RenderCommandTests.expected(zooms: 0...8, scale: 1, settings: .default)
        let path = Fixtures.temporaryPath(kind == "mbtiles" ? "r.mbtiles" : "r")
        defer { try? FileManager.default.removeItem(atPath: path) }
        func sink(_ mode: OutputMode) throws -> any TileSink {
            kind == "mbtiles"
                ? try MBTilesWriter(path: path, metadata: Fixtures.metadata(), mode: mode)
                : try TileFolderWriter(path: path, metadata: Fixtures.metadata(), mode: mode)
        }
        let progress = RenderProgress()
        let first = try Self.renderer(jobs: 2).render(
            into: Interrupting(try sink(.create), progress: progress, after: 10), progress: progress)
        #expect(first.interrupted && first.kept)
        #expect(first.written >= 10 && first.written < expected.count)
        #expect(try Self.tiles(try TileArchive.open(path), like: expected) == first.written)

        let again = RenderProgress()
        let second = try Self.renderer(jobs: 2).render(into: try sink(.resume), progress: again)
        #expect(!second.interrupted)
        #expect(second.resumed == first.written)
        #expect(second.written + second.resumed == expected.count)
        #expect(try Self.tiles(try TileArchive.open(path), like: expected) == expected.count)
    }

    @Test("PMTiles: stopped, nothing is left that looks whole")
    func pmtiles() throws {
        let path = Fixtures.temporaryPath("r.pmtiles")
        let progress = RenderProgress()
        let sink = try PMTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .create)
        let summary = try Self.renderer(jobs: 1).render(
            into: Interrupting(sink, progress: progress, after: 5), progress: progress)
        #expect(summary.interrupted && !summary.kept)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".tiles.partial"))
    }

    @Test("Ctrl-C: heatmap render stops, says so, keeps a valid MBTiles file, and --resume completes it")
    func interrupt() throws {
        let output = Fixtures.temporaryPath("i.mbtiles")
        let whole = Fixtures.temporaryPath("w.mbtiles")
        defer {
            try? FileManager.default.removeItem(atPath: output)
            try? FileManager.default.removeItem(atPath: whole)
        }
        let data = Fixtures.path("police_stations.json")
        let arguments = ["render", data, "--zoom", "0-10", "--jobs", "1"]
        let process = Process()
        process.executableURL = Fixtures.executable
        process.arguments = arguments + ["--output", output]
        let errors = Pipe()
        process.standardError = errors
        let collector = PipeCollector(errors.fileHandleForReading)
        try process.run()
        // Wait (at most 20 s) until some tiles are committed, then interrupt.
        for _ in 0..<200 {
            if let reader = try? MBTilesReader(path: output), (try? reader.tileData(z: 0, x: 0, y: 0)) != nil { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        process.interrupt()
        process.waitUntilExit()
        let text = collector.text()
        if process.terminationStatus == 0 {
            Issue.record("the render finished before the interrupt; nothing was tested: \(text)")
            return
        }
        #expect(process.terminationStatus == 130, "\(text)")
        #expect(
            text.contains("interrupted: \(output) is valid and holds the tiles finished; --resume continues"), "\(text)"
        )
        let resumed = try Fixtures.heatmap(arguments + ["--output", output, "--resume", "--quiet"])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        let uninterrupted = try Fixtures.heatmap(arguments + ["--output", whole, "--quiet"])
        #expect(uninterrupted.status == 0, "\(uninterrupted.standardError)")
        let a = try MBTilesReader(path: output)
        let b = try MBTilesReader(path: whole)
        var walk = try PyramidWalk(
            index: try PointIndex(points: Fixtures.policeStations), zooms: 0...10, scale: 1, radius: 20)
        var count = 0
        while let tile = walk.next() {
            let stored = try a.tileData(z: tile.zoom, x: tile.x, y: tile.y)
            let reference = try b.tileData(z: tile.zoom, x: tile.x, y: tile.y)
            #expect(stored != nil && stored == reference, "\(tile)")
            count += 1
        }
        #expect(count > 100)
    }
}

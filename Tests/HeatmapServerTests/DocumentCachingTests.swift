import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTestSupport
import HeatmapTiles
import Synchronization
import Testing

/// TileJSON, the catalog and the page: strong ETags, 304, Cache-Control, gzip; and the data
/// file watcher that reloads layers.
@Suite struct DocumentCachingTests {
    @Test(arguments: ["/police.json", "/police@2x.json", "/catalog", "/"])
    func documentsRevalidate(path: String) throws {
        var options = ServerOptions()
        options.documentCacheControl = "public, max-age=60"
        let server = try TestServer(options: options)
        defer { server.stop() }
        let client = try server.client()
        let first = try client.get(path)
        #expect(first.status == 200 && first.header("Cache-Control") == "public, max-age=60")
        #expect(first.header("Vary") == "Accept-Encoding" && first.header("Content-Encoding") == nil)
        let etag = try #require(first.header("ETag"))
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        #expect(try client.get(path).header("ETag") == etag, "the same bytes, the same tag")
        let again = try client.get(path, headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == etag)
        #expect(try client.get(path, headers: ["If-None-Match": "\"other\""]).status == 200)
        // gzip when asked for: its own tag, the same document inside.
        let zipped = try client.get(path, headers: ["Accept-Encoding": "deflate, gzip;q=0.5"])
        #expect(zipped.header("Content-Encoding") == "gzip" && zipped.header("ETag") != etag)
        #expect(Gzip.decompress(zipped.body) == first.body)
        #expect(zipped.body.count < first.body.count)
        let zippedTag = try #require(zipped.header("ETag"))
        let revalidated = try client.get(path, headers: ["Accept-Encoding": "gzip", "If-None-Match": zippedTag])
        #expect(revalidated.status == 304)
        for refused in ["gzip;q=0", "identity", "br", "*;q=0", "gzip;q=0.000"] {
            #expect(try client.get(path, headers: ["Accept-Encoding": refused]).body == first.body, "\(refused)")
        }
        #expect(try client.get(path, headers: ["Accept-Encoding": "*"]).header("Content-Encoding") == "gzip")
    }

    @Test func aTagChangesWithTheDocument() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        let plain = try client.get("/police.json").header("ETag")
        let tuned = try client.get("/police.json?radius=30").header("ETag")
        let sharp = try client.get("/police@2x.json").header("ETag")
        #expect(plain != nil && plain != tuned && plain != sharp)
    }

    @Test func theWatcherReportsChangedFilesOnce() throws {
        let folder = try TemporaryFolder("watch")
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("points.json")
        try Data("[]".utf8).write(to: file)
        let reports = Reports()
        let watcher = DataFileWatcher(paths: [file.path], interval: 0.05) { reports.add($0) }
        defer { watcher.stop() }
        try Data("[{\"lat\": 1, \"lng\": 2}]".utf8).write(to: file)
        #expect(reports.wait(for: 1) == [[file.path]])
        try FileManager.default.removeItem(at: file)
        #expect(reports.wait(for: 2) == [[file.path], [file.path]])
        // Nothing more while nothing changes (a missing file is reported once, not each check).
        Thread.sleep(forTimeInterval: 0.3)
        #expect(reports.all.count == 2)
    }

    @Test func aChangedFileReloadsTheLayerAndABrokenOneKeepsTheOldData() throws {
        let folder = try TemporaryFolder("reload")
        defer { folder.remove() }
        let file = folder.file("points.json")
        try Data("[{\"lat\": -37.8, \"lng\": 144.9}]".utf8).write(to: URL(fileURLWithPath: file))
        let layer = try ServedLayer(name: "p", source: file, settings: .default, data: LayerData.load(path: file))
        let service = try TileService(layers: [layer])
        let errors = Reports()
        let watcher = DataFileWatcher(paths: [file], interval: 0.05) { _ in
            errors.add(
                service.reload { (path) throws(LayerLoadError) in try LayerData.load(path: path) }.map(\.description))
        }
        defer { watcher.stop() }
        try Data("[{\"lat\": -37.8, \"lng\": 144.9}, {\"lat\": -37.7, \"lng\": 145}]".utf8)
            .write(to: URL(fileURLWithPath: file))
        #expect(errors.wait(for: 1) == [[]])
        #expect(layer.current.data.index.count == 2)
        try Data("[{\"lat\": ".utf8).write(to: URL(fileURLWithPath: file))
        let reported = errors.wait(for: 2)
        #expect(reported.count == 2 && reported[1].count == 1 && reported[1].first?.contains(file) == true)
        #expect(layer.current.data.index.count == 2, "the old data stays")
    }
}

/// What a watcher reported, waited for within a bound.
final class Reports: Sendable {
    private let reports = Mutex<[[String]]>([])

    func add(_ report: [String]) { reports.withLock { $0.append(report) } }

    var all: [[String]] { reports.withLock { $0 } }

    /// The reports once there are `count` of them, or what came within 10 seconds.
    func wait(for count: Int) -> [[String]] {
        for _ in 0..<1000 where all.count < count { Thread.sleep(forTimeInterval: 0.01) }
        return all
    }
}

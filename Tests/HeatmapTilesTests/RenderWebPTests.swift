import Foundation
import HeatmapKit
import HeatmapWebP
import Testing

@testable import HeatmapTiles

/// `heatmap render --format webp`: every output holds WebP tiles with the PNG tiles' pixels and
/// says so (MBTiles `format`, PMTiles tile type 4, `.webp` files).
@Suite struct RenderWebPTests {
    static let data = Fixtures.path("police_stations.json")

    /// The pixels of every tile `heatmap tile` draws at the command's defaults.
    static func expected(zooms: ClosedRange<Int>, scale: Int) throws -> [TileCoordinate: RGBAImage] {
        try RenderCommandTests.expected(zooms: zooms, scale: scale).mapValues { try PNGDecoder.decode($0) }
    }

    @Test("MBTiles: format webp, lossless tiles of the PNG tiles' pixels, resumed only as WebP")
    func mbtiles() throws {
        let output = Fixtures.temporaryPath("heat.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try Fixtures.heatmap([
            "render", Self.data, "--zoom", "0-6", "--scale", "2", "--format", "webp", "--output", output, "--quiet",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let expected = try Self.expected(zooms: 0...6, scale: 2)
        var found = 0
        do {  // Closed before the resumes below write.
            let database = try SQLiteDatabase(path: output, readOnly: true)
            let format = try database.prepare("SELECT value FROM metadata WHERE name = 'format'")
            #expect(try format.step() && format.text(0) == "webp")
            let rows = try database.prepare("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")
            while try rows.step() {
                let zoom = rows.integer(0)
                let tile = TileCoordinate(zoom: zoom, x: rows.integer(1), y: (1 << zoom) - 1 - rows.integer(2))
                let blob = rows.blob(3)
                #expect(Array(blob.prefix(4)) == Array("RIFF".utf8), "\(tile)")
                #expect(WebPDecoding.rgba(blob) == expected[tile], "\(tile)")
                found += 1
            }
        }
        #expect(found == expected.count && found > 10)
        // Resuming as PNG would mix formats: refused, naming the option.
        let png = try Fixtures.heatmap([
            "render", Self.data, "--zoom", "0-6", "--scale", "2", "--output", output, "--resume", "--quiet",
        ])
        #expect(png.status != 0 && png.standardError.contains("format"), "\(png.standardError)")
        let again = try Fixtures.heatmap([
            "render", Self.data, "--zoom", "0-6", "--scale", "2", "--format", "webp", "--output", output, "--resume",
        ])
        #expect(again.status == 0, "\(again.standardError)")
    }

    @Test("a folder of .webp files, and a PMTiles file of tile type 4 (the pmtiles package reads WEBP when present)")
    func folderAndPMTiles() throws {
        let expected = try Self.expected(zooms: 0...5, scale: 1)
        let folder = Fixtures.temporaryPath("heat-webp")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try Fixtures.heatmap([
            "render", Self.data, "--zoom", "0-5", "--format", "webp", "--webp-quality", "90", "--output", folder + "/",
            "--quiet",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        for (tile, image) in expected {
            let file = "\(folder)/\(tile.zoom)/\(tile.x)/\(tile.y).webp"
            let bytes = try #require(FileManager.default.contents(atPath: file), "\(file)")
            let decoded = try #require(WebPDecoding.rgba([UInt8](bytes)))
            #expect(decoded.width == image.width && decoded.height == image.height)
        }
        let output = Fixtures.temporaryPath("heat.pmtiles")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let pmtiles = try Fixtures.heatmap([
            "render", Self.data, "--zoom", "0-5", "--format", "webp", "--output", output, "--quiet",
        ])
        #expect(pmtiles.status == 0, "\(pmtiles.standardError)")
        let bytes = try #require(FileManager.default.contents(atPath: output))
        #expect(bytes[99] == 4)
        if let python = PMTilesPython.interpreter {
            let read = try Fixtures.run(python, ["-c", PMTilesPython.script, output])
            #expect(read.status == 0, "\(read.standardError)")
            let lines = read.standardOutput.split(separator: "\n")
            #expect(lines.first?.hasPrefix("True WEBP GZIP 0 5 \(expected.count)") == true, "\(lines.first ?? "")")
            for line in lines.dropFirst() {
                let parts = line.split(separator: " ")
                guard parts.count == 4, let z = Int(parts[0]), let x = Int(parts[1]), let y = Int(parts[2]),
                    let data = Data(base64Encoded: String(parts[3]))
                else { continue }
                #expect(WebPDecoding.rgba([UInt8](data)) == expected[TileCoordinate(zoom: z, x: x, y: y)])
            }
        }
    }

    @Test("--webp-quality without --format webp, or out of range, is a usage error")
    func usage() throws {
        for arguments in [
            ["--webp-quality", "80"], ["--format", "webp", "--webp-quality", "101"], ["--format", "gif"],
        ] {
            let run = try Fixtures.heatmap(
                ["render", Self.data, "--zoom", "0-1", "--output", Fixtures.temporaryPath("never.mbtiles")] + arguments)
            #expect(run.status == 64, "\(arguments): \(run.standardError)")
            #expect(run.standardError.contains("webp-quality") || run.standardError.contains("--format"))
        }
    }
}

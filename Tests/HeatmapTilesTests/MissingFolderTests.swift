import Foundation
import HeatmapTiles
import Testing

/// An archive asked for in a folder that does not exist: the error names the folder, as a new
/// user needs to read it (SQLite's own words were "unable to open database file").
@Suite struct MissingFolderTests {
    @Test("MBTiles in a missing folder names the folder")
    func mbtiles() throws {
        let folder = Fixtures.temporaryPath("missing")
        let path = folder + "/sub/heat.mbtiles"
        do {
            _ = try MBTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .create)
            Issue.record("the writer opened \(path)")
        } catch {
            #expect(error.description.hasPrefix(path), "\(error.description)")
            #expect(error.description.contains("the folder \(folder)/sub does not exist"), "\(error.description)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test("PMTiles in a missing folder names the folder")
    func pmtiles() throws {
        let folder = Fixtures.temporaryPath("missing")
        let path = folder + "/heat.pmtiles"
        do {
            _ = try PMTilesWriter(path: path, metadata: Fixtures.metadata(), mode: .create)
            Issue.record("the writer opened \(path)")
        } catch {
            #expect(error.description.hasPrefix(path + ":"), "\(error.description)")
            #expect(error.description.contains("the folder \(folder) does not exist"), "\(error.description)")
        }
    }
}

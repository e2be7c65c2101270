import Foundation
import HeatmapKit
import Testing

@Suite struct ReadPointsTests {
    @Test("readPoints keeps the points as read, in order, with the same report and errors as read")
    func sameAsRead() throws {
        let path = try ReaderFiles.write("lat,lng,weight\n-37.8,144.9,1.5\n91,0,1\n10.25,-190,0\n")
        let options = PointReadOptions(skipInvalid: true)
        let read = try PointFileReader.readPoints(path: path, options: options)
        #expect(read.points.map(\.coordinate.latitude) == [-37.8, 10.25])
        #expect(read.points.map(\.coordinate.longitude) == [144.9, -190])
        #expect(read.points.map(\.intensity) == [1.5, 0])
        let indexed = try PointFileReader.read(path: path, options: options)
        #expect(read.report == indexed.report)
        #expect(read.report.skippedLines == [3])
        #expect(throws: PointFileError.self) { try PointFileReader.readPoints(path: path) }
    }
}

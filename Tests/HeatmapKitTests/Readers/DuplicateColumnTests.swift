import Foundation
import HeatmapKit
import Testing

/// A CSV column given twice is an error naming the file and line, never a silent choice of the
/// first.
@Suite struct DuplicateColumnTests {
    @Test(
        "a CSV header that names a column twice",
        arguments: [
            (
                "lat,lng,lat\n1,2,3\n",
                "points.csv:1: columns 1 (\"lat\") and 3 (\"lat\") are both the latitude; "
                    + "keep one, or name the one to use with --lat COL"
            ),
            (
                "lat,latitude,lng\n1,2,3\n",
                "points.csv:1: columns 1 (\"lat\") and 2 (\"latitude\") are both the latitude; "
                    + "keep one, or name the one to use with --lat COL"
            ),
            (
                "lat,lng,x\n1,2,3\n",
                "points.csv:1: columns 2 (\"lng\") and 3 (\"x\") are both the longitude; "
                    + "keep one, or name the one to use with --lng COL"
            ),
            (
                "lat,lng,weight,count\n1,2,3,4\n",
                "points.csv:1: columns 3 (\"weight\") and 4 (\"count\") are both the weight; "
                    + "keep one, or name the one to use with --weight COL"
            ),
        ])
    func csvMistakes(text: String, message: String) throws {
        #expect(try ReaderFiles.message(text) == message)
    }

    @Test("a column given by name twice is an error even with the flag")
    func explicitDuplicate() throws {
        let options = PointReadOptions(latitudeColumn: "lat")
        #expect(
            try ReaderFiles.message("lat,lng,lat\n1,2,3\n", options: options)
                == "points.csv:1: columns 1 (\"lat\") and 3 (\"lat\") are both the latitude; "
                + "keep one, or rename the other")
    }

    @Test("a duplicate the flags leave unused, trailing empty fields and fields past the header are fine")
    func allowed() throws {
        let picked = try ReaderFiles.write("lat,latitude,lng\n1,2,3\n")
        let points = try ReaderFiles.points(picked, options: PointReadOptions(latitudeColumn: "latitude"))
        #expect(points.map(\.coordinate.latitude) == [2])
        let weights = try ReaderFiles.write("lat,lng,weight,count\n1,2,3,4\n")
        #expect(
            try ReaderFiles.points(weights, options: PointReadOptions(weightColumn: "count")).map(\.intensity) == [4])
        let trailing = try ReaderFiles.write("lat,lng\n1,2,\n3,4\n")
        #expect(try ReaderFiles.points(trailing).map(\.coordinate.longitude) == [2, 4])
        // Fields beyond the header's columns are not parsed (as before): the row's point is read.
        let wide = try ReaderFiles.write("lat,lng\n1,2,3,,\"x\"\n5,6\n")
        #expect(try ReaderFiles.points(wide).map(\.coordinate.longitude) == [2, 6])
        let unusedTwice = try ReaderFiles.write("lat,lng,name,name\n1,2,a,b\n")
        #expect(try ReaderFiles.points(unusedTwice).count == 1)
    }
}

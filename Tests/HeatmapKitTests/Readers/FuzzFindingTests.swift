import Foundation
import HeatmapKit
import Testing

/// What `scripts/ci/fuzz_data.py` found, kept in Fixtures/readers/fuzz with the points each
/// file holds: every one must read whole.
@Suite struct FuzzFindingTests {
    @Test(
        "valid files the campaign found not read whole",
        arguments: [
            // A UTF-8 BOM before a quoted first name (as spreadsheets write it): the name kept
            // its quotes and the column was not found (seed 1, cases 4671, 3527, 3821).
            ("ok-bom-quoted-header.csv", 3), ("ok-bom-quoted-header.tsv", 5), ("ok-bom-quoted-header.csv.gz", 40),
        ])
    func validFindings(name: String, points: Int) throws {
        let file = try PointFileReader.read(path: ReaderFiles.fixture("fuzz/\(name)"))
        #expect(file.report.pointsRead == points && file.report.skippedCount == 0)
    }

    @Test("a BOM before a quoted header name, in CSV and TSV, plain and from standard input")
    func byteOrderMark() throws {
        for text in ["\u{FEFF}\"lat\",\"lng\"\n1,2\n3,4", "\u{FEFF}\"lat\"\tlng\r\n1\t2\r\n3\t4\r\n"] {
            let path = try ReaderFiles.write(text, name: text.contains("\t") ? "p.tsv" : "p.csv")
            defer { ReaderFiles.remove(path) }
            #expect(try PointFileReader.read(path: path).report.pointsRead == 2)
        }
        // A BOM alone, or a BOM and a header, is still "empty" or "no rows".
        #expect(
            try ReaderFiles.message("\u{FEFF}")?.hasSuffix("is empty: expected a header line such as lat,lng,weight")
                == true)
        #expect(try ReaderFiles.message("\u{FEFF}lat,lng\n") == "points.csv: has a header but no rows of points")
    }
}

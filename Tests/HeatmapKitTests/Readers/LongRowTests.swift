import Foundation
import HeatmapKit
import HeatmapTestSupport
import Testing

/// CSV and TSV rows with more fields than the header are read, their extra fields not, and
/// counted: said once on standard error and in `info --json`, never dropped silently.
@Suite struct LongRowTests {
    static func report(_ text: String, name: String = "p.csv") throws -> PointFileReport {
        try PointFileReader.read(path: try ReaderFiles.write(text, name: name)).report
    }

    @Test("every column used: a row with any field more is counted, with the first one's line")
    func allColumnsUsed() throws {
        let report = try Self.report(
            "lat,lng,weight\n1,2,3\n1,2,3,4\n\n1,2,3\n1,2,3,\n1,2,3,\"a,b\"\n1,2,\"3\"\n")
        #expect(report.pointsRead == 6)
        #expect(report.longRowCount == 3)
        #expect(report.firstLongRowLine == 3)
        #expect(report.headerFieldCount == 3)
        let summary = try #require(report.longRowSummary)
        #expect(
            summary.hasSuffix(
                "p.csv: 3 rows have more fields than the header's 3 (first on line 3); the extra fields are not read"))
    }

    @Test("unused columns after the used ones: only rows past the header's count are counted, quotes respected")
    func unusedColumns() throws {
        let text =
            "lat,lng,name,notes\n1,2,a,b\n1,2,\"a,b\",\"c,\"\"d\"\", e\"\n1,2,a\n1,2\n1,2,a,b,c\n"
            + "1,2,\"x\",y,\"z,w\"\n1,2,a,\"b\nc\",d\n"
        let report = try Self.report(text)
        #expect(report.pointsRead == 7)
        #expect(report.longRowCount == 3)
        #expect(report.firstLongRowLine == 6)
        #expect(report.longRowSummary?.contains("the header's 4") == true)
        let tsv = try Self.report("lat\tlng\tname\n1\t2\ta\n1\t2\ta\tb\n1\t2\ta,b,c\n", name: "p.tsv")
        #expect(tsv.longRowCount == 1 && tsv.firstLongRowLine == 3)
        #expect(
            tsv.longRowSummary?.hasSuffix(
                "p.tsv: 1 row has more fields than the header's 3 (line 3); the extra fields are not read") == true)
    }

    @Test("no row longer than the header: no count and no summary")
    func none() throws {
        let report = try Self.report("lat,lng,weight,name\n1,2,3,a\n1,2,3\n1,2,3,\"a,b,c\"\n")
        #expect(report.longRowCount == 0 && report.firstLongRowLine == nil && report.longRowSummary == nil)
    }

    @Test("heatmap info says it once on standard error, and in --json")
    func command() throws {
        let path = try ReaderFiles.write("lat,lng\n-37.8,144.9\n-37.9,145.0,x\n-37.7,145.1,y,z\n")
        let text = try TestProgram.heatmap(["info", path])
        #expect(text.status == 0, "\(text.standardError)")
        let line = "2 rows have more fields than the header's 2 (first on line 3); the extra fields are not read"
        #expect(text.standardError.components(separatedBy: line).count == 2, "\(text.standardError)")
        #expect(text.standardOutput.contains("3 points read"))
        let json = try TestProgram.heatmap(["info", path, "--json"])
        #expect(json.status == 0, "\(json.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["longRowCount"] as? Int == 2)
        #expect(object["firstLongRowLine"] as? Int == 3)
        #expect(object["headerFieldCount"] as? Int == 2)
    }
}

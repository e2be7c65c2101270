import HeatmapCore
import Testing

/// Times, intervals and category selections: what they accept, and the errors that name the value.
@Suite struct FilterParserTests {
    @Test("times: Unix seconds, dates, date-times with and without offset")
    func times() {
        let march = Int64(1_709_251_200)  // 2024-03-01T00:00:00Z
        let cases: [(String, Int64, TimeParser.Kind)] = [
            ("1709251200", march, .unixSeconds), ("1709251200.75", march, .unixSeconds),
            ("-1.5", -2, .unixSeconds), ("2024-03-01", march, .calendar),
            ("2024-03-01T00:00:00Z", march, .calendar), ("2024-03-01T01:30+01:30", march, .calendar),
            ("2024-03-01 01:00:00.999+0100", march, .calendar), ("2024-02-29T23:00:00-01", march, .calendar),
            (" 2024-03-01T13:45:30 ", march + 49_530, .calendar), ("1970-01-01", 0, .calendar),
            ("1969-12-31T23:59:59Z", -1, .calendar),
        ]
        for (text, seconds, kind) in cases {
            let parsed = TimeParser.parse(text)
            #expect(parsed?.seconds == seconds, "\(text)")
            #expect(parsed?.kind == kind, "\(text)")
        }
        for bad in [
            "", "2024-02-30", "2023-02-29", "2024-13-01", "2024-03-01T24:00", "2024-03-01T12", "2024-03-01T12:00+25",
            "March 1", "1e9", "12:00", "2024-03-01Z", "99999999999999999", "+5",
        ] {
            #expect(TimeParser.parse(bad) == nil, "\(bad)")
        }
        #expect(TimeParser.format(march + 49_530) == "2024-03-01T13:45:30Z")
        #expect(TimeParser.format(-1) == "1969-12-31T23:59:59Z")
    }

    @Test("intervals: half open, open ends, a single instant is that second")
    func intervals() throws {
        let march = Int64(1_709_251_200)
        let month = try TimeWindow(parsing: "2024-03-01/2024-04-01")
        #expect(month.contains(march) && !month.contains(march - 1) && !month.contains(march + 31 * 86_400))
        #expect(try TimeWindow(parsing: "../2024-03-01") == TimeWindow(start: nil, end: march))
        #expect(try TimeWindow(parsing: "2024-03-01/") == TimeWindow(start: march, end: nil))
        #expect(try TimeWindow(parsing: "../..") == .all)
        #expect(try TimeWindow(parsing: "1709251200") == TimeWindow(start: march, end: march + 1))
        #expect(month.description == "2024-03-01T00:00:00Z/2024-04-01T00:00:00Z")
    }

    @Test(
        "bad intervals name the value",
        arguments: [
            ("2024-04-01/2024-03-01", "reversed"), ("2024-03-01/2024-03-01", "empty"),
            ("yesterday/..", "\"yesterday\""),
            ("2024-03-01/2024-04-01/2024-05-01", "2 '/'"), ("", "empty"),
        ])
    func badIntervals(text: String, named: String) {
        #expect {
            try TimeWindow(parsing: text)
        } throws: { error in
            (error as? FilterError)?.description.contains(named) == true
        }
    }

    @Test("categories: COL:V1,V2, percent-decoded when sent in a URL")
    func categories() throws {
        let plain = try CategorySelection(parsing: "kind:theft,burglary")
        #expect(plain.column == "kind" && plain.values == ["theft", "burglary"])
        let encoded = try CategorySelection(parsing: "kind%3Aof:a%2Cb,caf%C3%A9", percentEncoded: true)
        #expect(encoded.column == "kind:of" && encoded.values == ["a,b", "café"])
        for (bad, named) in [
            ("kind", "no ':'"), (":theft", "no column"), ("kind:", "empty value"), ("kind:a,,b", "empty value"),
            ("kind:" + (0...100).map(String.init).joined(separator: ","), "101 values"),
        ] {
            #expect(throws: FilterError.self, "\(bad)") { try CategorySelection(parsing: bad) }
            do {
                _ = try CategorySelection(parsing: bad)
            } catch {
                #expect(error.description.contains(named), "\(error)")
            }
        }
        #expect(throws: FilterError.self) { try CategorySelection(parsing: "k:%ZZ", percentEncoded: true) }
    }

    @Test("a selection resolves to masks, naming an unknown column or value")
    func resolve() throws {
        var kind = CategoryDictionary(column: "kind")
        for value in ["theft", "fraud", "theft"] { _ = try kind.add(value) }
        #expect(kind.counts == [2, 1])
        #expect(kind.mostFrequent(1).map(\.value) == ["theft"])
        let filter = try PointFilter(
            window: .all, categories: [CategorySelection(column: "kind", values: ["fraud"])], dictionaries: [kind])
        #expect(filter.masks == [[false, true]])
        for (selections, named) in [
            ([CategorySelection(column: "area", values: ["x"])], "\"area\" is not in the data"),
            ([CategorySelection(column: "kind", values: ["arson"])], "no value \"arson\""),
            (
                [
                    CategorySelection(column: "kind", values: ["theft"]),
                    CategorySelection(column: "kind", values: ["fraud"]),
                ],
                "given twice"
            ),
            (
                [
                    CategorySelection(column: "kind", values: (0..<60).map(String.init)),
                    CategorySelection(column: "area", values: (0..<41).map(String.init)),
                ],
                "101 category values"
            ),
        ] {
            do {
                _ = try PointFilter(window: .all, categories: selections, dictionaries: [kind])
                Issue.record("\(selections) was accepted")
            } catch {
                #expect(error.description.contains(named), "\(error)")
            }
        }
    }
}

import Foundation
import HeatmapCore
import HeatmapKit
import Testing

/// Random, truncated, huge and deeply nested input: every read either succeeds or throws a
/// ``PointFileError`` naming the file; none crashes or hangs. The seeds are fixed, so every
/// run reads the same inputs.
@Suite struct ReaderFuzzTests {
    static let extensions = ["csv", "tsv", "json", "geojson", "ndjson", "data"]

    /// Reads a file; `true` if it read, `false` if it threw an error naming the file.
    func outcome(_ path: String, options: PointReadOptions = .init()) -> Bool {
        do {
            let file = try PointFileReader.read(path: path, options: options)
            return file.index.count == file.report.pointsRead && file.report.pointsRead > 0
        } catch {
            #expect(error.path == path && !error.reason.isEmpty)
            return false
        }
    }

    static let alphabet = Array("[]{}\":,.-+eE0123456789 \n\r\t\"latlngweight\\u00ZFeaturePointtypecoordinates".utf8)

    @Test("seeded random bytes", arguments: 0..<40)
    func randomBytes(seed: Int) throws {
        var generator = SplitMix64(seed: UInt64(seed))
        var outcomes: [Bool] = []
        for round in 0..<10 {
            let count = Int.random(in: 0...2048, using: &generator)
            let structured = round % 2 == 0
            let bytes = (0..<count).map { _ in
                structured
                    ? Self.alphabet[Int.random(in: 0..<Self.alphabet.count, using: &generator)]
                    : UInt8.random(in: 0...255, using: &generator)
            }
            var prefix: [UInt8] = []
            if round % 3 == 0 {
                prefix = Array((round % 6 == 0 ? "lat,lng,weight\n" : "[{\"lat\": 1, \"lng\": 2}, ").utf8)
            }
            let name = "fuzz.\(Self.extensions[(seed + round) % Self.extensions.count])"
            let path = try ReaderFiles.write(Data(prefix + bytes), name: name)
            outcomes.append(outcome(path, options: .init(skipInvalid: round % 4 == 1)))
        }
        // Reaching here is most of the test (no crash, no hang); errors were checked in `outcome`.
        #expect(outcomes.count == 10)
    }

    @Test("every fixture truncated at many offsets")
    func truncations() throws {
        let names = [
            "google.json", "quoted.csv", "points.tsv", "collection.geojson", "bare.geojson", "points.ndjson",
            "cities-excerpt.csv", "points.csv.gz",
        ]
        for name in names {
            let bytes = try #require(FileManager.default.contents(atPath: ReaderFiles.fixture(name)))
            let step = max(1, bytes.count / 150)
            var successes = 0
            for end in stride(from: 0, to: bytes.count, by: step) {
                let path = try ReaderFiles.write(bytes.prefix(end), name: name)
                if outcome(path) { successes += 1 }
            }
            // The whole file reads; an empty prefix never does.
            #expect(outcome(try ReaderFiles.write(bytes, name: name)), "\(name)")
            #expect(!outcome(try ReaderFiles.write(Data(), name: name)), "\(name)")
            #expect(successes < bytes.count / step + 1)
        }
    }

    @Test("a field or string larger than 1 MiB is an error naming the line")
    func hugeFields() throws {
        let big = String(repeating: "x", count: 2 << 20)
        let csv = try ReaderFiles.write("lat,lng,name\n1,2,a\n3,4,\(big)\n")
        let error = try #require(ReaderFiles.error(reading: csv))
        #expect(error.line == 3 && error.reason.contains("longer than 1048576 bytes"), "\(error)")
        let quoted = try ReaderFiles.write("lat,lng,name\n1,2,\"\(big)")
        #expect(ReaderFiles.error(reading: quoted)?.line == 2)
        let json = try ReaderFiles.write("[{\"lat\": 1, \"lng\": 2, \"name\": \"\(big)\"}]", name: "p.json")
        #expect(ReaderFiles.error(reading: json)?.reason == "a string longer than 1048576 bytes")
        let wide = try ReaderFiles.write("lat,lng" + String(repeating: ",c", count: 20_000) + "\n1,2\n")
        #expect(ReaderFiles.error(reading: wide)?.reason == "the header has 20002 columns, more than 10000")
        let number = try ReaderFiles.write(
            "[{\"lat\": 1\(String(repeating: "0", count: 500)), \"lng\": 2}]", name: "p.json")
        #expect(ReaderFiles.error(reading: number)?.reason == "a number longer than 400 characters")
    }

    @Test("100000-deep nesting stops at the depth limit without using the stack")
    func deepNesting() throws {
        for (open, name) in [
            ("[", "p.json"), ("{\"a\":", "p.geojson"), ("[{\"lat\": 1, \"lng\": 2, \"x\": ", "p.ndjson"),
        ] {
            let path = try ReaderFiles.write(String(repeating: open, count: 100_000), name: name)
            #expect(ReaderFiles.error(reading: path)?.reason == "nesting deeper than 128 levels")
        }
        let fine = try ReaderFiles.write(
            "[{\"lat\": 1, \"lng\": 2, \"x\": \(String(repeating: "[", count: 100))\(String(repeating: "]", count: 100))}]",
            name: "p.json")
        #expect(outcome(fine))
    }

    @Test("the corpus in Fixtures/readers/fuzz reads or fails cleanly, as recorded in its name")
    func corpus() throws {
        let folder = ReaderFiles.fixture("fuzz")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names.count >= 8)
        for name in names {
            let expected = name.hasPrefix("ok-")
            #expect(outcome("\(folder)/\(name)") == expected, "\(name)")
        }
    }
}

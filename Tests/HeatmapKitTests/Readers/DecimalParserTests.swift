import HeatmapCore
import Testing

@testable import HeatmapKit

/// The hand-written number parser agrees with `Double(String)` to the bit.
@Suite struct DecimalParserTests {
    @Test("random decimals of every length round-trip as Double(String) parses them")
    func randomDecimals() {
        var generator = SplitMix64(seed: 7)
        var mismatches: [String] = []
        for _ in 0..<200_000 {
            let digits = Int.random(in: 1...20, using: &generator)
            var text = Bool.random(using: &generator) ? "-" : ""
            let point = Int.random(in: 0...digits, using: &generator)
            for i in 0..<digits {
                if i == point && i > 0 { text += "." }
                text += String(Int.random(in: 0...9, using: &generator))
            }
            if Int.random(in: 0..<4, using: &generator) == 0 {
                text += "e\(Int.random(in: -330...310, using: &generator))"
            }
            if DecimalParser.parse(text)?.bitPattern != Double(text)?.bitPattern { mismatches.append(text) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("every shortest representation of random doubles round-trips")
    func shortestRepresentations() {
        var generator = SplitMix64(seed: 8)
        for _ in 0..<100_000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { continue }
            #expect(DecimalParser.parse(value.description)?.bitPattern == value.bitPattern, "\(value)")
        }
    }

    @Test(
        "only decimal forms are numbers",
        arguments: [
            "nan", "inf", "-inf", "infinity", "0x10", "1e", "e5", "-", "+", ".", "1.2.3", "1e+", " 1", "1 ", "١",
        ])
    func rejects(text: String) {
        #expect(DecimalParser.parse(text) == nil)
    }

    @Test(
        "edge forms",
        arguments: ["0", "-0", "+5", ".5", "5.", "1E5", "1e-400", "1e400", "00012.5000", "9007199254740993"])
    func edges(text: String) {
        #expect(DecimalParser.parse(text)?.bitPattern == Double(text)?.bitPattern)
    }
}

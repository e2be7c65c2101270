import Foundation
import HeatmapKit
import Testing

/// The bound a "too large" error prints is one the readers accept: it used to print Float's
/// largest as Float prints it, 3.4028235e+38, which as a decimal is above that largest, so a
/// user who wrote the bound back was refused with the same message.
@Suite struct FloatLimitTests {
    /// The bound in a message `… (at most BOUND…`.
    func bound(in message: String?) -> String? {
        guard let message, let start = message.range(of: "(at most ")?.upperBound else { return nil }
        return String(message[start...].prefix { $0 != ")" && $0 != " " })
    }

    @Test("the largest value printed is read")
    func value() throws {
        var options = PointReadOptions()
        options.valueColumn = "v"
        let message = try ReaderFiles.message("lat,lng,v\n1,2,1e39\n", options: options)
        let limit = try #require(bound(in: message), "\(message ?? "")")
        #expect(try ReaderFiles.message("lat,lng,v\n1,2,\(limit)\n", options: options) == nil)
        #expect(try ReaderFiles.message("lat,lng,v\n1,2,-\(limit)\n", options: options) == nil)
    }

    @Test("the largest weight printed is not too large (only the sum's limit may refuse it)")
    func weight() throws {
        let message = try ReaderFiles.message("lat,lng,weight\n1,2,1e39\n")
        let limit = try #require(bound(in: message), "\(message ?? "")")
        let again = try ReaderFiles.message("lat,lng,weight\n1,2,\(limit)\n")
        #expect(again?.contains("too large") == false, "\(again ?? "")")
    }
}

import Dispatch
import Foundation
import HeatmapKit
import Synchronization
import Testing

@testable import HeatmapServer

/// `max-percentile=` makes the server search a whole zoom once per distinct value: the
/// searches are bounded (refused with 503 and `Retry-After` beyond the limit, never queued),
/// the value is rounded to 0.1, and the server keeps answering meanwhile.
@Suite struct PercentileAdmissionTests {
    @Test("at most `limit` different searches at once; requests for a running one share it")
    func admission() {
        let admission = PercentileAdmission(limit: 1)
        func key(_ p: Double) -> PercentileAdmission.Key {
            PercentileAdmission.Key(
                layer: "a", generation: 0, zoom: 3, scale: 1, settings: HeatmapSettings(maximumPercentile: p))
        }
        #expect(admission.admit(key(90)) == nil)
        #expect(admission.admit(key(90)) == nil)
        #expect(admission.admit(key(91))?.contains("percentile searches are running") == true)
        #expect(admission.refused == 1)
        admission.release(key(90))
        #expect(admission.admit(key(91)) != nil)
        admission.release(key(90))
        #expect(admission.admit(key(91)) == nil)
        #expect(admission.refused == 2)
    }

    @Test("max-percentile= is rounded to 0.1: 99.34 and 99.3 are one value, one search")
    func rounded() throws {
        func percentile(_ text: String) throws -> Double? {
            try SettingOverrides(query: [("max-percentile", text)]).applied(to: .default).maximumPercentile
        }
        #expect(try percentile("99.34") == 99.3)
        #expect(try percentile("0.01") == 0.1)
        #expect(try percentile("100") == 100)
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client(timeout: 60)
        let first = try client.get("/police/7/115/78.png?max-percentile=99.34")
        let second = try client.get("/police/7/115/78.png?max-percentile=99.3")
        #expect(first.status == 200 && second.status == 200)
        #expect(first.header("ETag") == second.header("ETag") && first.body == second.body)
    }

    @Test("many distinct percentiles at once: 503s with Retry-After or tiles, and other tiles and /health still answer")
    func flood() throws {
        let server = try TestServer()
        defer { server.stop() }
        let values = (0..<24).map { 50.0 + Double($0) * 1.5 }
        let outcomes = Mutex<[Int: Int]>([:])
        let missingRetryAfter = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        let group = DispatchGroup()
        for value in values {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                do {
                    let client = try server.client(timeout: 120)
                    let response = try client.get("/police/6/57/39.png?max-percentile=\(value)")
                    outcomes.withLock { $0[response.status, default: 0] += 1 }
                    if response.status == 503, response.header("Retry-After") == nil {
                        missingRetryAfter.add(1, ordering: .relaxed)
                    }
                } catch {
                    failures.add(1, ordering: .relaxed)
                }
            }
        }
        // Meanwhile the server answers its health check and a tile without a percentile.
        let client = try server.client(timeout: 60)
        for _ in 0..<5 {
            #expect(try client.get("/health").status == 200)
            #expect([200, 204].contains(try client.get("/police/7/115/78.png").status))
        }
        #expect(group.wait(timeout: .now() + 300) == .success)
        let counted = outcomes.withLock { $0 }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(missingRetryAfter.load(ordering: .relaxed) == 0)
        #expect(Set(counted.keys).isSubset(of: [200, 204, 503]), "\(counted)")
        #expect(counted.values.reduce(0, +) == values.count, "\(counted)")
        #expect(server.service.percentileSearches.refused == counted[503, default: 0], "\(counted)")
        // A refused value is drawn when asked again once the searches are done (bounded retries).
        for value in values.prefix(3) {
            var status = 503
            for _ in 0..<200 where status == 503 {
                status = try client.get("/police/6/57/39.png?max-percentile=\(value)").status
                if status == 503 { Thread.sleep(forTimeInterval: 0.05) }
            }
            #expect([200, 204].contains(status), "\(value)")
        }
    }
}

import Foundation

extension TestClient {
    /// Asks `/metrics` every 20 ms, 200 times at most, until the server counts `reloads`
    /// reloads (after a SIGHUP); whether it did.
    func waitForReloads(_ reloads: Int) throws -> Bool {
        for _ in 0..<200 {
            if try get("/metrics").text.contains("heatmap_reloads_total \(reloads)\n") { return true }
            usleep(20_000)
        }
        return false
    }
}

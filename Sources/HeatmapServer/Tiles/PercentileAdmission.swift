import Foundation
import HeatmapKit
import Synchronization

/// Bounds the whole-zoom percentile searches that `max-percentile=` asks for: each distinct
/// value costs the server one or two renders of every occupied tile of the zoom, so at most
/// ``limit`` different searches run at once (requests for one already running share it);
/// beyond that a tile is refused (503 with `Retry-After`), never queued without bound.
final class PercentileAdmission: Sendable {
    /// What one search is for: a layer's zoom and scale at one percentile, with the other settings.
    struct Key: Hashable, Sendable {
        var layer: String
        var generation: Int
        var zoom: Int
        var scale: Int
        var settings: HeatmapSettings
    }

    /// The most different searches at once.
    let limit: Int
    private let running = Mutex<[Key: Int]>([:])
    private let refusedCount = Atomic<Int>(0)

    /// Half the cores (at least one): each search draws on every core itself.
    init(limit: Int = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)) {
        self.limit = limit
    }

    /// Admits a request for `key` (the caller must ``release(_:)`` it), or says why not.
    func admit(_ key: Key) -> String? {
        let refused: Bool = running.withLock { running in
            if let waiting = running[key] {
                running[key] = waiting + 1
                return false
            }
            guard running.count < limit else { return true }
            running[key] = 1
            return false
        }
        guard refused else { return nil }
        refusedCount.add(1, ordering: .relaxed)
        return "\(limit) percentile searches are running (each ranks a whole zoom's pixels); try again shortly"
    }

    /// Ends one admitted request.
    func release(_ key: Key) {
        running.withLock { running in
            if let waiting = running[key], waiting > 1 { running[key] = waiting - 1 } else { running[key] = nil }
        }
    }

    /// The tiles refused so far.
    var refused: Int { refusedCount.load(ordering: .relaxed) }
}

extension TileService {
    /// 503 with `Retry-After`: too much work of one kind under way (percentile searches, static images).
    func busyResponse(_ reason: String) -> HTTPResponse {
        var response = HTTPResponse.text(.serviceUnavailable, reason)
        response.headers.add("Retry-After", String(options.retryAfterSeconds))
        return response
    }
}

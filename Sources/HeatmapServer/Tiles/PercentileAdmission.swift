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

extension TileOverrides {
    /// `max-percentile=` is rounded to this step (at most 1000 distinct values, each a search).
    static let percentileStep = 0.1

    /// `p` rounded to ``percentileStep`` (0.1), and at least one step.
    static func roundedPercentile(_ p: Double) -> Double {
        max(percentileStep, (p * 10).rounded() / 10)
    }
}

extension TileService {
    /// Draws a tile whose percentile must be searched for first, if ``percentileSearches``
    /// admits the search: on the render queue (a search waited for holds no render-pool
    /// thread), else 503 with `Retry-After` at once.
    /// The search drawing with `settings` at `zoom` and `scale` would need first, or `nil`.
    func percentileSearch(layer: ServedLayer, zoom: Int, scale: Int, settings: HeatmapSettings)
        -> PercentileAdmission.Key?
    {
        guard settings.maximumPercentile != nil,
            layer.layer.needsPercentileSearch(zoom: zoom, scale: scale, settings: settings)
        else { return nil }
        // One search serves every zoom normalised at the same zoom, whatever the colours.
        var searched = settings
        searched.gradient = layer.settings.gradient
        searched.opacity = layer.settings.opacity
        searched.colorScale = layer.settings.colorScale
        return PercentileAdmission.Key(
            layer: layer.name, generation: layer.cacheStamp.generation, zoom: settings.normalizationZoom(zoom),
            scale: scale, settings: searched)
    }

    /// 503 with `Retry-After`: too many percentile searches at once.
    func percentileRefusal(_ reason: String) -> HTTPResponse {
        var response = HTTPResponse.text(.serviceUnavailable, reason)
        response.headers.add("Retry-After", String(options.retryAfterSeconds))
        return response
    }

    func searchThenRender(layer: ServedLayer, key: TileKey, done: @escaping InFlightRenders.Waiter) {
        guard let search = percentileSearch(layer: layer, zoom: key.zoom, scale: key.scale, settings: key.settings)
        else {
            return renderQueue.async { [self] in done(render(layer: layer, key: key)) }
        }
        if let reason = percentileSearches.admit(search) {
            return done(.failure(RenderFailure(status: 503, message: reason)))
        }
        renderQueue.async { [self] in
            let result = render(layer: layer, key: key)
            percentileSearches.release(search)
            done(result)
        }
    }
}

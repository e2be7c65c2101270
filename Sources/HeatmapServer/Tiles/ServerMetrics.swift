import Synchronization

/// Counters and the render-time histogram behind `/metrics` (Prometheus text format 0.0.4).
package final class ServerMetrics: Sendable {
    /// Upper bounds of the render-time histogram's buckets, seconds.
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    struct State {
        var requests: [RequestLabel: Int] = [:]
        var renderCounts = [Int](repeating: 0, count: ServerMetrics.buckets.count)
        var renderCount = 0
        var renderSum = 0.0
        var renderCPUCounts = [Int](repeating: 0, count: ServerMetrics.buckets.count)
        var renderCPUSum = 0.0
        var cacheHits = 0
        var cacheMisses = 0
        var sharedRenders = 0
        var webpEncodes = 0
        var errors = 0
        var sourceErrors = 0
        var sourceTimeouts = 0
        var reloads = 0
        var reloadFailures = 0
    }

    struct RequestLabel: Hashable {
        var route: String
        var status: Int
    }

    private let state = Mutex(State())
    /// The counts of nearly every request (tiles answered 200, 204 or 304; cache hits), kept
    /// apart in atomics so that the I/O loops do not take the lock for them; merged into the
    /// others when read.
    private let tilesOK = Atomic<Int>(0)
    private let tilesEmpty = Atomic<Int>(0)
    private let tilesNotModified = Atomic<Int>(0)
    private let cacheHits = Atomic<Int>(0)

    /// Counters at zero.
    package init() {}

    func request(route: String, status: Int) {
        if route == "tile" {
            switch status {
            case 200:
                tilesOK.add(1, ordering: .relaxed)
                return
            case 204:
                tilesEmpty.add(1, ordering: .relaxed)
                return
            case 304:
                tilesNotModified.add(1, ordering: .relaxed)
                return
            default: break
            }
        }
        state.withLock {
            $0.requests[RequestLabel(route: route, status: status), default: 0] += 1
            if status >= 500 { $0.errors += 1 }
        }
    }

    /// A render of `seconds` wall time, of which `cpuSeconds` on the render thread's CPU clock
    /// (`nil` for a render that waited elsewhere, such as a hosted layer's, counted as its wall time).
    func rendered(seconds: Double, cpuSeconds: Double? = nil) {
        let cpu = cpuSeconds ?? seconds
        state.withLock { state in
            state.renderCount += 1
            state.renderSum += seconds
            state.renderCPUSum += cpu
            if let bucket = Self.buckets.firstIndex(where: { seconds <= $0 }) { state.renderCounts[bucket] += 1 }
            if let bucket = Self.buckets.firstIndex(where: { cpu <= $0 }) { state.renderCPUCounts[bucket] += 1 }
        }
    }

    func cache(hit: Bool) {
        if hit {
            cacheHits.add(1, ordering: .relaxed)
            return
        }
        state.withLock { state in
            if hit { state.cacheHits += 1 } else { state.cacheMisses += 1 }
        }
    }
    func sharedRender() { state.withLock { $0.sharedRenders += 1 } }
    /// A WebP tile encoded from its PNG (not taken from the WebP cache or another request's encode).
    func webpEncoded() { state.withLock { $0.webpEncodes += 1 } }
    func renderFailed() { state.withLock { $0.errors += 1 } }
    /// A render whose data source failed (a database down), or took longer than its timeout.
    func sourceFailed(timeout: Bool) {
        state.withLock { state in
            if timeout { state.sourceTimeouts += 1 } else { state.sourceErrors += 1 }
        }
    }
    func reloaded(ok: Bool) {
        state.withLock { state in
            if ok { state.reloads += 1 } else { state.reloadFailures += 1 }
        }
    }

    /// The text exposition, with gauges passed in.
    func exposition(stats: ServerStats, cache: (count: Int, bytes: Int), layers: [(String, Int)]) -> String {
        var s = state.withLock { $0 }
        s.cacheHits += cacheHits.load(ordering: .relaxed)
        for (status, count) in [
            (200, tilesOK.load(ordering: .relaxed)), (204, tilesEmpty.load(ordering: .relaxed)),
            (304, tilesNotModified.load(ordering: .relaxed)),
        ] where count > 0 {
            s.requests[RequestLabel(route: "tile", status: status), default: 0] += count
        }
        var out = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(String, String)]) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for (labels, value) in samples { out += "\(name)\(labels) \(value)\n" }
        }
        let requests = s.requests.sorted { ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status) }
        metric(
            "heatmap_http_requests_total", "counter", "HTTP requests answered by the routes, by route and status.",
            requests.map { ("{route=\"\($0.key.route)\",status=\"\($0.key.status)\"}", "\($0.value)") })
        out += Self.histogram(
            "heatmap_tile_render_seconds", "Time to draw and encode a tile not in the cache.", s.renderCounts,
            sum: s.renderSum, count: s.renderCount)
        out += Self.histogram(
            "heatmap_tile_render_cpu_seconds",
            "CPU time of the render thread drawing and encoding a tile not in the cache.", s.renderCPUCounts,
            sum: s.renderCPUSum, count: s.renderCount)
        metric(
            "heatmap_tile_cache_hits_total", "counter", "Tile requests answered from the cache.",
            [("", "\(s.cacheHits)")])
        metric(
            "heatmap_tile_cache_misses_total", "counter", "Tile requests not in the cache.", [("", "\(s.cacheMisses)")])
        metric(
            "heatmap_tile_renders_shared_total", "counter", "Tile requests that waited for the same render under way.",
            [("", "\(s.sharedRenders)")])
        metric(
            "heatmap_webp_encodes_total", "counter", "WebP tiles encoded from their PNG (not from the WebP cache).",
            [("", "\(s.webpEncodes)")])
        metric("heatmap_tile_cache_entries", "gauge", "Tiles in the cache.", [("", "\(cache.count)")])
        metric("heatmap_tile_cache_bytes", "gauge", "Bytes of tiles in the cache.", [("", "\(cache.bytes)")])
        metric("heatmap_errors_total", "counter", "Responses 5xx and failed renders.", [("", "\(s.errors)")])
        metric(
            "heatmap_source_errors_total", "counter", "Renders whose data source failed (a database down, say).",
            [("", "\(s.sourceErrors)")])
        metric(
            "heatmap_source_timeouts_total", "counter", "Renders whose data source took longer than its timeout.",
            [("", "\(s.sourceTimeouts)")])
        metric("heatmap_reloads_total", "counter", "Successful data reloads.", [("", "\(s.reloads)")])
        metric("heatmap_reload_failures_total", "counter", "Failed data reloads.", [("", "\(s.reloadFailures)")])
        metric(
            "heatmap_layer_points", "gauge", "Points in each layer.",
            layers.map { ("{layer=\"\($0.0)\"}", "\($0.1)") })
        metric(
            "heatmap_connections_open", "gauge", "Client connections open.",
            [("", "\(stats.openConnections.load(ordering: .relaxed))")])
        metric(
            "heatmap_connections_accepted_total", "counter", "Client connections accepted.",
            [("", "\(stats.acceptedConnections.load(ordering: .relaxed))")])
        metric(
            "heatmap_connections_rejected_total", "counter", "Connections refused at the connection cap.",
            [("", "\(stats.rejectedConnections.load(ordering: .relaxed))")])
        metric(
            "heatmap_malformed_requests_total", "counter", "Requests refused by the parser.",
            [("", "\(stats.malformedRequests.load(ordering: .relaxed))")])
        metric(
            "heatmap_timeouts_total", "counter", "Connections closed for a timeout.",
            [("", "\(stats.timeouts.load(ordering: .relaxed))")])
        if let backend = stats.eventLoop.withLock({ $0 }) {
            metric(
                "heatmap_event_loop_info", "gauge", "The poller of the event loops (epoll or poll).",
                [("{backend=\"\(backend.rawValue)\"}", "1")])
        }
        return out
    }

    /// A histogram over ``buckets`` in the text format.
    private static func histogram(_ name: String, _ help: String, _ counts: [Int], sum: Double, count: Int) -> String {
        var out = "# HELP \(name) \(help)\n# TYPE \(name) histogram\n"
        var cumulative = 0
        for (bound, n) in zip(buckets, counts) {
            cumulative += n
            out += "\(name)_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        out += "\(name)_bucket{le=\"+Inf\"} \(count)\n\(name)_sum \(sum)\n\(name)_count \(count)\n"
        return out
    }
}

import Synchronization

/// Bounds the pixels of the static images drawn at once. An image holds its tiles, its RGBA
/// pixels and its PNG until it is answered, and images are drawn off the I/O loops without a
/// thread cap, so without a bound many large images asked at once (one per connection) would
/// grow the server's memory with the connections. Beyond ``budget`` pixels under way an image
/// is refused (503 with `Retry-After`), never queued without bound.
final class StaticImageAdmission: Sendable {
    /// The most pixels under way at once.
    let budget: Int
    private let underWay = Mutex<Int>(0)
    private let refusedCount = Atomic<Int>(0)

    /// Four of the largest image by default: 1280 × 1280 points at `@2x`.
    init(budget: Int = 4 * (2 * TileService.maximumStaticPoints) * (2 * TileService.maximumStaticPoints)) {
        self.budget = max(1, budget)
    }

    /// Admits an image of `pixels` (the caller must ``release(_:)`` them), or says why not.
    /// An image larger than the whole budget is admitted when nothing else is under way.
    func admit(_ pixels: Int) -> String? {
        let admitted = underWay.withLock { used in
            guard used == 0 || used + pixels <= budget else { return false }
            used += pixels
            return true
        }
        guard !admitted else { return nil }
        refusedCount.add(1, ordering: .relaxed)
        return "static images of \(budget) pixels in all are being drawn; try again shortly"
    }

    /// Ends an admitted image of `pixels`.
    func release(_ pixels: Int) {
        underWay.withLock { $0 = max(0, $0 - pixels) }
    }

    /// The pixels under way now.
    var pixels: Int { underWay.withLock { $0 } }

    /// The images refused so far.
    var refused: Int { refusedCount.load(ordering: .relaxed) }
}

extension TileService {
    /// The static images' counter in the Prometheus text format.
    func staticImageMetricsText() -> String {
        "# HELP heatmap_static_refusals_total Static images refused (503) because others of "
            + "\(staticImages.budget) pixels in all were being drawn.\n"
            + "# TYPE heatmap_static_refusals_total counter\n"
            + "heatmap_static_refusals_total \(staticImages.refused)\n"
    }
}

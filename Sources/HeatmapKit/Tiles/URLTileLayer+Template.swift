import Foundation

extension URLTileLayer {
    /// A layer from a URL template such as `https://tile.example.org/{z}/{x}/{y}.png` or
    /// `file:///srv/tiles/{z}/{x}/{y}.png`: `{x}`, `{y}` and `{z}` are replaced by the tile's
    /// numbers, `{-y}` by the TMS row (2^zoom − 1 − y).
    ///
    /// - Throws: ``TileLayerError/invalidLayer(_:)`` when the template lacks `{x}`, `{y}` (or
    ///   `{-y}`) or `{z}`, or is not a file, http or https URL.
    public convenience init(
        template: String, name: String = "url", tileSize: Int = 256, zIndex: Int = 0, opacity: Double = 1,
        timeout: Double = 10, maximumRequestsPerHost: Int = 6, cacheBytes: Int = 64 << 20,
        maximumTileBytes: Int = 16 << 20
    ) throws(TileLayerError) {
        try self.init(
            template: template, name: name, tileSize: tileSize, zIndex: zIndex, opacity: opacity, timeout: timeout,
            maximumRequestsPerHost: maximumRequestsPerHost, cacheBytes: cacheBytes, maximumTileBytes: maximumTileBytes,
            fetcher: nil)
    }

    /// A layer from a URL template whose `http(s)` tiles come through `fetcher` (`nil`: a
    /// URLSession of its own).
    package convenience init(
        template: String, name: String = "url", tileSize: Int = 256, zIndex: Int = 0, opacity: Double = 1,
        timeout: Double = 10, maximumRequestsPerHost: Int = 6, cacheBytes: Int = 64 << 20,
        maximumTileBytes: Int = 16 << 20, fetcher: (any TileFetching)?
    ) throws(TileLayerError) {
        let hasRow = template.contains("{y}") || template.contains("{-y}")
        guard template.contains("{x}"), hasRow, template.contains("{z}") else {
            throw .invalidLayer("URL template \"\(template)\" needs {z}, {x} and {y} (or {-y})")
        }
        let lowered = template.lowercased()
        guard ["file://", "http://", "https://"].contains(where: { lowered.hasPrefix($0) }),
            URL(string: Self.fill(template, x: 0, y: 0, zoom: 0)) != nil
        else {
            throw .invalidLayer("URL template \"\(template)\" is not a file://, http:// or https:// URL")
        }
        self.init(
            name: name, tileSize: tileSize, zIndex: zIndex, opacity: opacity, timeout: timeout,
            maximumRequestsPerHost: maximumRequestsPerHost, cacheBytes: cacheBytes, maximumTileBytes: maximumTileBytes,
            fetcher: fetcher
        ) { x, y, zoom in
            URL(string: Self.fill(template, x: x, y: y, zoom: zoom))
        }
    }

    /// The template with a tile's numbers in place.
    static func fill(_ template: String, x: Int, y: Int, zoom: Int) -> String {
        let rows = (0...22).contains(zoom) ? 1 << zoom : 1
        return
            template
            .replacingOccurrences(of: "{z}", with: String(zoom))
            .replacingOccurrences(of: "{x}", with: String(x))
            .replacingOccurrences(of: "{-y}", with: String(rows - 1 - y))
            .replacingOccurrences(of: "{y}", with: String(y))
    }
}

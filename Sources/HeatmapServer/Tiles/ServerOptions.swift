/// How the tile server answers, beyond its layers.
package struct ServerOptions: Sendable {
    /// The shared tile cache's size in bytes. Default 256 MiB.
    package var cacheBytes: Int = 256 << 20
    /// `Cache-Control` of tiles. Default `public, max-age=300`.
    package var tileCacheControl = "public, max-age=300"
    /// `Cache-Control` of TileJSON, the catalog and the page. Default `no-cache` (revalidate
    /// with their `ETag`s).
    package var documentCacheControl = "no-cache"
    /// What an empty tile answers: 204 (the default) or a transparent PNG.
    package var emptyTile = EmptyTile.noContent
    /// Whether to send `Access-Control-Allow-Origin: *` and answer CORS preflights. Default true.
    package var cors = true
    /// Attribution in TileJSON and on the map page.
    package var attribution = ""
    /// Zoom levels offered, within 0...22.
    package var minZoom = 0
    /// The deepest zoom offered. Default 22.
    package var maxZoom = 22
    /// Where Debian's `libjs-leaflet` keeps Leaflet; `nil` to always use the CDN.
    package var leafletDirectory: String? = "/usr/share/javascript/leaflet"
    /// The base map's tile URL on the map page (OpenStreetMap's by default); empty for none.
    package var baseMapURL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    /// The scheme and authority for absolute URLs when a request has no usable `Host`.
    package var publicURL = ""

    /// The `Retry-After` seconds of a 503 for a tile or image not available yet (an upstream
    /// that failed or timed out, a layer that said so). Default 2.
    package var retryAfterSeconds = 2

    /// Where the detail of a source's failure goes (once per failure episode, see
    /// ``SourceFailureLog``); HTTP clients get a plain sentence. Default standard error.
    package var sourceFailureLog: @Sendable (String) -> Void = SourceFailureLog.standardError

    /// The token that allows `POST` and `DELETE /{layer}/points`; `nil` (the default) answers
    /// them 403.
    package var writeToken: WriteToken?

    /// The defaults.
    package init() {}
}

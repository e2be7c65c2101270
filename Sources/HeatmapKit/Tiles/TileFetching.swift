import Foundation

/// What one GET of a tile gave: its status and whole body.
package struct TileResponse: Sendable, Hashable {
    /// The HTTP status (a 3xx too: redirects are not followed).
    package var status: Int
    /// The body, at most the limit the fetch was given.
    package var body: [UInt8]

    /// A response.
    package init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}

/// How a ``URLTileLayer`` GETs its `http(s)` tiles: one backend behind one call, so that each
/// platform uses one it can trust. URLSession (``URLSessionTileFetcher``) on Apple platforms
/// and for the library alone; the `heatmap` command and server on Linux use libcurl
/// (`CurlTileFetcher` in HeatmapTiles), where FoundationNetworking's cancellation races a
/// redirect's delegate callback and keeps reading a body after `cancel()`.
///
/// Every backend answers the same way: no redirect is followed (a 3xx is the answer, which the
/// layer takes as "not available yet", so an upstream cannot steer the server at another host),
/// the body stops at `maximumBytes` (the transfer ends there, it is not read and dropped), and
/// the whole GET ends within `timeout` seconds or when the calling task is cancelled.
package protocol TileFetching: Sendable {
    /// GETs `url`: the status and body, or `nil` on any error, a timeout, cancellation of the
    /// calling task, or a body (announced or read) beyond `maximumBytes`.
    func get(_ url: URL, timeout: Double, maximumBytes: Int) async -> TileResponse?
}

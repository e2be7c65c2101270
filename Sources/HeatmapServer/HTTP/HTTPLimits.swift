/// The limits and timeouts of the HTTP layer; every one bounds what a client can make the
/// server hold or wait for.
package struct HTTPLimits: Sendable, Hashable {
    /// The longest request line, in bytes (414 beyond). Default 8 KiB.
    package var maxRequestLine: Int = 8 << 10
    /// The largest header section after the request line, in bytes (431 beyond). Default 32 KiB.
    package var maxHeaderBytes: Int = 32 << 10
    /// The most header fields (431 beyond). Default 100.
    package var maxHeaderCount: Int = 100
    /// The most open connections; more are answered 503 and closed. Default 1024.
    package var maxConnections: Int = 1024
    /// Seconds a keep-alive connection may stay idle between requests. Default 60.
    package var idleTimeout: Double = 60
    /// Seconds a client has to send a whole request head once it starts (408 after). Default 10.
    package var requestTimeout: Double = 10
    /// Seconds a response may make no progress towards a client that does not read. Default 30.
    package var writeTimeout: Double = 30
    /// Requests answered on one connection before it is closed. Default 10 000.
    package var maxRequestsPerConnection: Int = 10_000

    /// The largest request body read, in bytes (`Content-Length`; 413 beyond, and the body is
    /// not read). 0, the default, reads no bodies: requests with one are refused as before.
    /// Bodies of GET and HEAD are never read.
    package var maxBodyBytes: Int = 0
    /// Whether a body is read only for a request whose `Authorization` is `Bearer` with
    /// ``bodyToken`` (none when that is `nil`): other requests are answered from their head, the
    /// body unread (``HTTPRequest/bodyUnread``), and the connection closed, so a client without
    /// the token cannot make the server hold ``maxBodyBytes`` for it. Default `false`.
    package var bodiesNeedToken = false
    /// The token a body needs when ``bodiesNeedToken`` is set.
    package var bodyToken: WriteToken?

    /// The defaults above.
    package init() {}
}

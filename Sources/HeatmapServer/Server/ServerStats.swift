import Synchronization

/// Counters of the connection layer, read by `/metrics`.
package final class ServerStats: Sendable {
    /// Connections open now.
    package let openConnections = Atomic<Int>(0)
    /// Connections accepted since start.
    package let acceptedConnections = Atomic<Int>(0)
    /// Connections refused with 503 because the cap was reached.
    package let rejectedConnections = Atomic<Int>(0)
    /// Requests refused by the parser (400, 414, 431, 505).
    package let malformedRequests = Atomic<Int>(0)
    /// Connections closed for a timeout (idle, slow request or stalled write).
    package let timeouts = Atomic<Int>(0)
    /// The poller of the server counting here (`nil` before one starts).
    let eventLoop = Mutex<EventLoopBackend?>(nil)

    /// Counters at zero.
    package init() {}
}

import Synchronization

/// A counter a responder advances whenever answers it let event loops keep may have changed
/// (a layer's data changing, a reload): a kept answer stands while the counter still reads
/// what it read before making it.
package final class ResponseVersion: Sendable {
    private let counter = Atomic<Int>(0)

    /// A counter at 0.
    package init() {}

    /// The value now (read it before looking up what the answer is made of).
    package var value: Int { counter.load(ordering: .acquiring) }

    /// Marks every answer kept so far as stale.
    package func advance() { counter.add(1, ordering: .releasing) }
}

/// What lets an event loop keep an answer and give it again to later requests of the same
/// target: the version it was made at, and what to count when it is given again.
package struct ReuseStamp: Sendable {
    /// The counter whose change makes the answer stale.
    package var version: ResponseVersion
    /// Its value read before the answer was made.
    package var stamp: Int
    /// Called, on the loop's thread, for every request answered from the loop's copy (the
    /// responder's metrics).
    package var reused: @Sendable () -> Void

    /// Creates a stamp.
    package init(version: ResponseVersion, stamp: Int, reused: @escaping @Sendable () -> Void) {
        self.version = version
        self.stamp = stamp
        self.reused = reused
    }

    /// Whether nothing changed since the answer was made.
    var isCurrent: Bool { version.value == stamp }
}

/// A responder some of whose immediate answers an event loop may keep, per loop, and give again
/// without asking: to any `GET` or `HEAD` request with the same target, without a body or
/// `If-None-Match`, while the stamp's version is unchanged. The loop keeps the response's
/// head written out (all but `Date`), so a repeated answer costs no routing, lookup or
/// formatting; the responder's shared caches and their locks are not touched.
package protocol ReusingResponder: HTTPResponder {
    /// The reply to one request, as ``HTTPResponder/respond(to:)``; sets `reuse` when the
    /// loop may keep an immediate response for the same target.
    func respond(to request: HTTPRequest, reuse: inout ReuseStamp?) -> HTTPReply
    /// The most body bytes each event loop keeps (0: none).
    var reuseBytesPerLoop: Int { get }
}

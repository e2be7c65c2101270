/// What answers requests: a value the server calls on its I/O thread for each request.
///
/// Answer at once with ``HTTPReply/response(_:)`` when that is cheap (a cached tile, a JSON
/// document); otherwise return ``HTTPReply/deferred(_:)`` and do the work on another thread,
/// calling the completion once.
package protocol HTTPResponder: Sendable {
    /// The reply to one request.
    func respond(to request: HTTPRequest) -> HTTPReply
    /// The methods answered, for `Allow` in a 405 the server itself makes; `GET, HEAD` unless given.
    var allowedMethods: String { get }
}

extension HTTPResponder {
    /// `GET, HEAD`.
    package var allowedMethods: String { "GET, HEAD" }
}

/// A responder's answer.
package enum HTTPReply: Sendable {
    /// The response, ready now.
    case response(HTTPResponse)
    /// Work to start; it calls the completion with the response exactly once, from any thread.
    case deferred(@Sendable (_ completion: @escaping @Sendable (HTTPResponse) -> Void) -> Void)
}

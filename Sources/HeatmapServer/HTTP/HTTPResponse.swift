/// A status code and its reason phrase.
package struct HTTPStatus: Sendable, Hashable {
    /// The code, 100...599.
    package var code: Int
    /// The reason phrase.
    package var reason: String

    /// Creates a status.
    package init(_ code: Int, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// 200 OK.
    package static let ok = HTTPStatus(200, "OK")
    /// 204 No Content.
    package static let noContent = HTTPStatus(204, "No Content")
    /// 304 Not Modified.
    package static let notModified = HTTPStatus(304, "Not Modified")
    /// 400 Bad Request.
    package static let badRequest = HTTPStatus(400, "Bad Request")
    /// 404 Not Found.
    package static let notFound = HTTPStatus(404, "Not Found")
    /// 405 Method Not Allowed.
    package static let methodNotAllowed = HTTPStatus(405, "Method Not Allowed")
    /// 408 Request Timeout.
    package static let requestTimeout = HTTPStatus(408, "Request Timeout")
    /// 414 URI Too Long.
    package static let uriTooLong = HTTPStatus(414, "URI Too Long")
    /// 431 Request Header Fields Too Large.
    package static let requestHeaderFieldsTooLarge = HTTPStatus(431, "Request Header Fields Too Large")
    /// 500 Internal Server Error.
    package static let internalServerError = HTTPStatus(500, "Internal Server Error")
    /// 503 Service Unavailable.
    package static let serviceUnavailable = HTTPStatus(503, "Service Unavailable")
    /// 505 HTTP Version Not Supported.
    package static let httpVersionNotSupported = HTTPStatus(505, "HTTP Version Not Supported")
}

/// A response: status, header fields and body. The server adds `Date`, `Content-Length`,
/// `Server` and `Connection`.
package struct HTTPResponse: Sendable, Equatable {
    /// The status.
    package var status: HTTPStatus
    /// The header fields.
    package var headers: HTTPHeaders
    /// The body (sent for GET, its length only for HEAD).
    package var body: [UInt8]

    /// Creates a response.
    package init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain text response (`text/plain; charset=utf-8`).
    package static func text(_ status: HTTPStatus, _ text: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
            body: Array((text + "\n").utf8))
    }

    /// The bytes on the wire; without the body for HEAD (`headOnly`), `Connection: close` unless `keepAlive`.
    package func serialized(headOnly: Bool, keepAlive: Bool, date: String) -> [UInt8] {
        var bytes = serializedHead(keepAlive: keepAlive, date: date)
        if !headOnly && hasBody { bytes += body }
        return bytes
    }

    /// Whether the status carries a body (all but 204 and 304).
    package var hasBody: Bool { status.code != 204 && status.code != 304 }

    /// The status line and header fields with the blank line after them: the bytes before the body.
    package func serializedHead(keepAlive: Bool, date: String) -> [UInt8] {
        var head = headBeforeDate(reserving: 96)
        head.appendText("Date: ")
        head.appendText(date)
        head.appendText("\r\n")
        if !keepAlive { head.appendText("Connection: close\r\n") }
        head.appendText("\r\n")
        return head
    }

    /// The status line and every header field but `Date` (and `Connection`), each line ended:
    /// what an event loop keeps of a response it answers again, adding the date and the blank line.
    func headBeforeDate(reserving extra: Int = 0) -> [UInt8] {
        var head: [UInt8] = []
        head.reserveCapacity(416 + extra)
        head.appendText("HTTP/1.1 ")
        head.appendText(String(status.code))
        head.appendText(" ")
        head.appendText(status.reason)
        head.appendText("\r\nServer: ")
        head.appendText(HeatmapServerInfo.name)
        head.appendText("\r\n")
        for field in headers {
            head.appendText(field.name)
            head.appendText(": ")
            head.appendText(field.value)
            head.appendText("\r\n")
        }
        if hasBody {
            head.appendText("Content-Length: ")
            head.appendText(String(body.count))
            head.appendText("\r\n")
        }
        return head
    }
}

extension [UInt8] {
    /// Appends a string's UTF-8 bytes; native strings hand them out in one copy, not a walk over
    /// the UTF-8 view.
    mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}

/// The server's identity.
package enum HeatmapServerInfo {
    /// The server's name in `Server` headers.
    package static let name = "HeatmapKit"
}

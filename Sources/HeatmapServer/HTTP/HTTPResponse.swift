/// A status code and its reason phrase.
public struct HTTPStatus: Sendable, Hashable {
    /// The code, 100...599.
    public var code: Int
    /// The reason phrase.
    public var reason: String

    /// Creates a status.
    public init(_ code: Int, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// 200 OK.
    public static let ok = HTTPStatus(200, "OK")
    /// 204 No Content.
    public static let noContent = HTTPStatus(204, "No Content")
    /// 304 Not Modified.
    public static let notModified = HTTPStatus(304, "Not Modified")
    /// 400 Bad Request.
    public static let badRequest = HTTPStatus(400, "Bad Request")
    /// 404 Not Found.
    public static let notFound = HTTPStatus(404, "Not Found")
    /// 405 Method Not Allowed.
    public static let methodNotAllowed = HTTPStatus(405, "Method Not Allowed")
    /// 408 Request Timeout.
    public static let requestTimeout = HTTPStatus(408, "Request Timeout")
    /// 414 URI Too Long.
    public static let uriTooLong = HTTPStatus(414, "URI Too Long")
    /// 431 Request Header Fields Too Large.
    public static let requestHeaderFieldsTooLarge = HTTPStatus(431, "Request Header Fields Too Large")
    /// 500 Internal Server Error.
    public static let internalServerError = HTTPStatus(500, "Internal Server Error")
    /// 503 Service Unavailable.
    public static let serviceUnavailable = HTTPStatus(503, "Service Unavailable")
    /// 505 HTTP Version Not Supported.
    public static let httpVersionNotSupported = HTTPStatus(505, "HTTP Version Not Supported")
}

/// A response: status, header fields and body. The server adds `Date`, `Content-Length`,
/// `Server` and `Connection`.
public struct HTTPResponse: Sendable, Equatable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body (sent for GET, its length only for HEAD).
    public var body: [UInt8]

    /// Creates a response.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain text response (`text/plain; charset=utf-8`).
    public static func text(_ status: HTTPStatus, _ text: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
            body: Array((text + "\n").utf8))
    }

    /// The bytes on the wire; without the body for HEAD (`headOnly`), `Connection: close` unless `keepAlive`.
    public func serialized(headOnly: Bool, keepAlive: Bool, date: String) -> [UInt8] {
        var bytes = serializedHead(keepAlive: keepAlive, date: date)
        if !headOnly && hasBody { bytes += body }
        return bytes
    }

    /// Whether the status carries a body (all but 204 and 304).
    public var hasBody: Bool { status.code != 204 && status.code != 304 }

    /// The status line and header fields with the blank line after them: the bytes before the body.
    public func serializedHead(keepAlive: Bool, date: String) -> [UInt8] {
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
public enum HeatmapServerInfo {
    /// The server's name in `Server` headers.
    public static let name = "HeatmapKit"
}

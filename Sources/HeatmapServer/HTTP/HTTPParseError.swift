/// Why a request head was refused; each maps to the 4xx/5xx status the server answers with
/// before closing the connection.
package enum HTTPParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Malformed syntax (400), with what was wrong.
    case badRequest(String)
    /// The request line is longer than the limit (414).
    case requestLineTooLong(limit: Int)
    /// The header section is larger than the limit or has too many fields (431).
    case headersTooLarge(String)
    /// A version other than HTTP/1.0 or HTTP/1.1 (505).
    case versionNotSupported(String)
    /// A body longer than ``HTTPLimits/maxBodyBytes`` (413); it is not read.
    case payloadTooLarge(limit: Int)
    /// A body without `Content-Length` or a chunked `Transfer-Encoding` where bodies are read (411).
    case lengthRequired

    /// The status to answer with.
    package var status: HTTPStatus {
        switch self {
        case .badRequest: .badRequest
        case .requestLineTooLong: .uriTooLong
        case .headersTooLarge: .requestHeaderFieldsTooLarge
        case .versionNotSupported: .httpVersionNotSupported
        case .payloadTooLarge: .contentTooLarge
        case .lengthRequired: .lengthRequired
        }
    }

    /// What was wrong, for the response body.
    package var description: String {
        switch self {
        case .badRequest(let reason): "bad request: \(reason)"
        case .requestLineTooLong(let limit): "the request line is longer than \(limit) bytes"
        case .headersTooLarge(let reason): "header fields too large: \(reason)"
        case .versionNotSupported(let version): "HTTP version \(version) is not supported (HTTP/1.0 and 1.1 are)"
        case .payloadTooLarge(let limit): "the body is longer than \(limit) bytes (see --max-body-mb)"
        case .lengthRequired: "send the body with a Content-Length or Transfer-Encoding: chunked"
        }
    }
}

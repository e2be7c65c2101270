/// A failed system call of the server, with `errno`'s meaning.
public struct SocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call that failed, e.g. `bind`.
    public var call: String
    /// `errno` after the call.
    public var code: Int32
    /// Context, e.g. the address.
    public var detail: String

    /// Creates an error from a call and `errno`.
    public init(_ call: String, code: Int32 = errno, detail: String = "") {
        self.call = call
        self.code = code
        self.detail = detail
    }

    /// `bind 127.0.0.1:8080: Address already in use`.
    public var description: String {
        let message = String(cString: strerror(code))
        return detail.isEmpty ? "\(call): \(message)" : "\(call) \(detail): \(message)"
    }
}

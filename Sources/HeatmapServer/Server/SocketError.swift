/// A failed system call of the server, with `errno`'s meaning.
package struct SocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call that failed, e.g. `bind`.
    package var call: String
    /// `errno` after the call.
    package var code: Int32
    /// Context, e.g. the address.
    package var detail: String

    /// Creates an error from a call and `errno`.
    package init(_ call: String, code: Int32 = errno, detail: String = "") {
        self.call = call
        self.code = code
        self.detail = detail
    }

    /// `bind 127.0.0.1:8080: Address already in use`.
    package var description: String {
        let message = String(cString: strerror(code))
        return detail.isEmpty ? "\(call): \(message)" : "\(call) \(detail): \(message)"
    }
}

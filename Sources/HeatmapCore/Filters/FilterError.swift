/// A time, interval or category that cannot be used, with a message that names the value and
/// says what is allowed.
package struct FilterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, naming the value, and what is allowed.
    package var description: String

    /// An error with its message.
    package init(_ description: String) {
        self.description = description
    }
}

extension String {
    /// The text quoted for a message, cut to 60 characters so that hostile input stays short.
    var quotedForFilter: String {
        let cut = count > 60 ? prefix(60) + "…" : Substring(self)
        return "\"" + String(cut) + "\""
    }
}

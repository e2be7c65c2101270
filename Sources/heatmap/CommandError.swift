/// A mistake on the command line or in its input, printed as `heatmap: message`.
struct CommandError: Error, CustomStringConvertible {
    var description: String
    /// The process exit status: 64 for usage errors (sysexits' EX_USAGE), 1 otherwise.
    var status: Int32 = 1

    init(_ description: String, status: Int32 = 1) {
        self.description = description
        self.status = status
    }

    static func usage(_ message: String) -> CommandError { CommandError(message, status: 64) }
}

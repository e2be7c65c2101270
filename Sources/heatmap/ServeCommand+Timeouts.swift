import HeatmapServer

extension ServeCommand {
    /// The flags that set the HTTP layer's timeouts, in seconds.
    static let timeoutFlags: Set<String> = ["idle-timeout", "request-timeout", "write-timeout"]

    /// The longest timeout a flag may set: a day.
    static let maximumTimeout = 86_400.0

    /// `--idle-timeout S` (a keep-alive connection between requests, default 60), `--request-timeout
    /// S` (a request head once its first byte came, default 10, then 408) and `--write-timeout S`
    /// (a response that makes no progress towards a client that does not read, default 30).
    static func applyTimeouts(_ list: ArgumentList, to limits: inout HTTPLimits) throws(CommandError) {
        let settings: [(String, WritableKeyPath<HTTPLimits, Double>)] = [
            ("idle-timeout", \.idleTimeout), ("request-timeout", \.requestTimeout), ("write-timeout", \.writeTimeout),
        ]
        for (flag, field) in settings {
            guard let seconds = try list.number(flag) else { continue }
            guard seconds.isFinite, (0.05...maximumTimeout).contains(seconds) else {
                throw .usage("--\(flag) \(seconds) is outside 0.05...\(Int(maximumTimeout)) seconds")
            }
            limits[keyPath: field] = seconds
        }
    }
}

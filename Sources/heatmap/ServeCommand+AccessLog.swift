import Foundation
import HeatmapServer

extension ServeCommand {
    /// `--access-log`'s value checked: a path or `-`; `nil` when not given.
    static func accessLogPath(_ value: String?) throws(CommandError) -> String? {
        guard let value else { return nil }
        guard !value.isEmpty else { throw .usage("--access-log needs a file, or - for standard output") }
        return value
    }

    /// The access log asked for, opened (an error naming the file if it cannot be), or `nil`.
    func openAccessLog() throws(CommandError) -> AccessLog? {
        guard let accessLogPath else { return nil }
        do {
            return try AccessLog(path: accessLogPath)
        } catch {
            throw CommandError(error.description)
        }
    }

    /// Opens the access log's file again (SIGHUP, after logrotate moved it); says so if it fails.
    static func reopen(_ log: AccessLog?) {
        do {
            try log?.reopen()
        } catch {
            StandardStreams.error("heatmap: \(error.description) (logging to the old file)\n")
        }
    }
}

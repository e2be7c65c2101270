import Foundation

/// The command's standard error, written without Foundation's `FileHandle.write(_:)`, whose
/// `try!` traps when the write fails: a full disk, or a closed pipe in `serve` (which ignores
/// SIGPIPE) killed the process.
enum StandardStreams {
    /// Writes `text` to standard error; a failure is ignored, there being nowhere left to say it.
    static func error(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }

    /// Writes `text` to standard output; a failure is ignored (a server's banner or a progress
    /// line is not worth dying for).
    static func output(_ text: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    }

    /// Flushes what `print` buffered for standard output.
    ///
    /// - Throws: ``CommandError`` when any of it could not be written (a full disk): `info`
    ///   would otherwise exit 0 having printed nothing.
    static func flushOutput() throws(CommandError) {
        guard fflush(nil) != 0 else { return }  // every stream: `stdout` is not concurrency-safe to name
        let code = errno
        throw CommandError("cannot write to standard output: \(reason(code))")
    }

    /// Writes all of `bytes` to `descriptor`, retrying short writes and interruptions.
    ///
    /// - Returns: `nil`, or the `errno` of the write that failed.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { raw -> Int32? in
            guard let base = raw.baseAddress else { return nil }
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// What a failed write's `errno` means, in words, `ENOSPC` saying the disk is full.
    static func reason(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return code == ENOSPC ? "the disk is full (\(text))" : text
    }
}

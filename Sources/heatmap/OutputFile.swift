import Foundation

/// Where `tile` and `image` put what they draw: a file given with `--output`, else standard
/// output (never a terminal).
enum OutputFile {
    /// Writes `bytes` to `path`, or to standard output when `path` is `nil`.
    ///
    /// A regular file (or a new one) is written whole under a temporary name beside it and
    /// renamed over the path, so a full disk leaves the old file as it was and no cut-off PNG.
    /// Anything else (a device, a FIFO) is written in place: a rename over it would, run as
    /// root, have replaced `--output /dev/null` with a regular file.
    ///
    /// - Parameter what: what the bytes are, for the refusal to write them to a terminal.
    static func write(_ bytes: [UInt8], to path: String?, what: String) throws(CommandError) {
        try stream(to: path, what: what) { (write) throws(CommandError) in try write(bytes) }
    }

    /// Writes what `produce` hands its `write` function, in the order it comes, to `path` or to
    /// standard output, as ``write(_:to:what:)`` does: a regular file appears whole (renamed
    /// into place) only when `produce` returns; when it throws, the file is left as it was.
    static func stream(
        to path: String?, what: String,
        _ produce: (_ write: ([UInt8]) throws(CommandError) -> Void) throws(CommandError) -> Void
    ) throws(CommandError) {
        guard let path else {
            guard isatty(STDOUT_FILENO) == 0 else {
                throw .usage("refusing to write a binary \(what) to the terminal; give --output FILE or redirect")
            }
            return try produce { (bytes) throws(CommandError) in
                if let code = StandardStreams.writeAll(bytes, to: STDOUT_FILENO) {
                    throw CommandError("cannot write the \(what) to standard output: \(StandardStreams.reason(code))")
                }
            }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return try writeReplacing(produce, to: path, mode: nil) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return try writeInPlace(produce, to: path) }
        // A symbolic link keeps pointing where it did: the file it names is replaced.
        let target = realpath(path, nil).map { resolved in
            defer { free(resolved) }
            return String(cString: resolved)
        }
        try writeReplacing(produce, to: target ?? path, mode: status.st_mode & 0o777)
    }

    /// Writes what `produce` gives into the existing non-regular file at `path`.
    private static func writeInPlace(
        _ produce: (_ write: ([UInt8]) throws(CommandError) -> Void) throws(CommandError) -> Void, to path: String
    ) throws(CommandError) {
        let descriptor = open(path, O_WRONLY | O_TRUNC)
        guard descriptor >= 0 else {
            throw CommandError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        try produce { (bytes) throws(CommandError) in
            if let code = StandardStreams.writeAll(bytes, to: descriptor) {
                throw CommandError("cannot write \(path): \(StandardStreams.reason(code))")
            }
        }
    }

    /// Writes what `produce` gives to a temporary file beside `path`, then renames it over
    /// `path`; on any failure (of `produce` too), or SIGINT/SIGTERM/SIGHUP meanwhile, the
    /// temporary file is removed and `path` is left as it was (see ``PartialOutput``).
    ///
    /// - Parameter mode: the old file's permissions, or `nil` for a new file (0644 less the umask).
    private static func writeReplacing(
        _ produce: (_ write: ([UInt8]) throws(CommandError) -> Void) throws(CommandError) -> Void, to path: String,
        mode: mode_t?
    ) throws(CommandError) {
        let temporary = "\(path).partial-\(getpid())"
        PartialOutput.removeStale(beside: path)
        PartialOutput.begin(temporary)
        defer { PartialOutput.end() }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL, mode ?? 0o644)
        guard descriptor >= 0 else {
            throw CommandError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        if let mode { _ = fchmod(descriptor, mode) }
        var failure: Int32? = nil
        do {
            try produce { (bytes) throws(CommandError) in
                if let code = StandardStreams.writeAll(bytes, to: descriptor) {
                    throw CommandError(
                        "cannot write \(path): \(StandardStreams.reason(code)) (the file is unchanged)")
                }
            }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        PartialOutput.holdForTest()
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            throw CommandError("cannot write \(path): \(StandardStreams.reason(failure)) (the file is unchanged)")
        }
    }
}

/// A file opened with POSIX calls, so that every failed write is seen with its `errno`
/// (a full disk is an error, never a short file). A class, to own the descriptor.
final class POSIXFile {
    let descriptor: Int32
    let path: String

    /// Opens `path`: for reading, or created (truncated) for writing.
    init(path: String, writing: Bool) throws(TileArchiveError) {
        let flags = writing ? (O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC) : (O_RDONLY | O_CLOEXEC)
        let fd = open(path, flags, 0o644)
        guard fd >= 0 else { throw Self.error(errno, path: path, doing: writing ? "create" : "open") }
        descriptor = fd
        self.path = path
    }

    deinit { close(descriptor) }

    /// Appends all of `bytes`.
    func write(_ bytes: [UInt8]) throws(TileArchiveError) {
        let failure: Int32? = bytes.withUnsafeBytes { raw -> Int32? in
            var done = 0
            while done < raw.count {
                guard let base = raw.baseAddress else { return nil }
                let count = systemWrite(descriptor, base + done, raw.count - done)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += count
            }
            return nil
        }
        if let failure { throw Self.error(failure, path: path, doing: "write") }
    }

    /// Reads `count` bytes at `offset`.
    func read(count: Int, at offset: Int) throws(TileArchiveError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        let failure: Int32? = bytes.withUnsafeMutableBytes { raw -> Int32? in
            while done < count {
                guard let base = raw.baseAddress else { return nil }
                let got = pread(descriptor, base + done, count - done, off_t(offset + done))
                if got < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if got == 0 { return 0 }
                done += got
            }
            return nil
        }
        if let failure {
            if failure == 0 { throw TileArchiveError(.invalid, path: path, "is shorter than its directory says") }
            throw Self.error(failure, path: path, doing: "read")
        }
        return bytes
    }

    /// The file's size in bytes.
    func size() -> Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return 0 }
        return Int(info.st_size)
    }

    /// Flushes the file to the disk.
    func sync() throws(TileArchiveError) {
        guard fsync(descriptor) == 0 else { throw Self.error(errno, path: path, doing: "sync") }
    }

    /// The error for an `errno`: a full disk, no permission or a missing folder, or another.
    static func error(_ code: Int32, path: String, doing what: String) -> TileArchiveError {
        let message = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT, EFBIG:
            return TileArchiveError(.full, path: path, "cannot \(what): the disk is full (\(message))")
        case EACCES, EPERM, ENOENT, ENOTDIR, EROFS, EISDIR:
            return TileArchiveError(.unwritable, path: path, "cannot \(what): \(message)")
        default:
            return TileArchiveError(.io, path: path, "cannot \(what): \(message)")
        }
    }

    /// Renames `from` to `to`, replacing it.
    static func rename(_ from: String, to: String) throws(TileArchiveError) {
        guard systemRename(from, to) == 0 else { throw error(errno, path: to, doing: "rename \(from) to") }
    }
}

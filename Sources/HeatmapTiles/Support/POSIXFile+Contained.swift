extension POSIXFile {
    /// The resolved (symlink-free, absolute) form of `path`, or `nil` when it does not exist.
    ///
    /// - Throws: ``TileArchiveError`` when it cannot be resolved for another reason (a link
    ///   loop, no permission).
    static func resolved(_ path: String) throws(TileArchiveError) -> String? {
        guard let pointer = realpath(path, nil) else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw error(errno, path: path, doing: "resolve")
        }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// The bytes of the regular file at `path` if it lies inside the folder `root` (resolved),
    /// or `nil` when there is none. A symbolic link inside the folder to a file inside it is
    /// followed; one that leads out, a device, FIFO, socket or folder, and a file over `limit`
    /// bytes are errors, never opened for reading (the resolved path is opened with
    /// `O_NOFOLLOW | O_NONBLOCK` and checked again with `fstat`, so a swap in between is seen).
    ///
    /// - Throws: ``TileArchiveError`` of kind `.invalid` naming `path`, or `.io` when reading fails.
    static func readContained(_ path: String, inside root: String, limit: Int) throws(TileArchiveError) -> [UInt8]? {
        guard let real = try resolved(path) else { return nil }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        guard real.hasPrefix(prefix) else {
            throw TileArchiveError(.invalid, path: path, "is a link that leads out of the tile folder")
        }
        var info = stat()
        guard stat(real, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw error(errno, path: path, doing: "stat")
        }
        try checkRegular(info, limit: limit, path: path)
        let fd = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw error(errno, path: path, doing: "open")
        }
        defer { close(fd) }
        guard fstat(fd, &info) == 0 else { throw error(errno, path: path, doing: "stat") }
        try checkRegular(info, limit: limit, path: path)
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        let failure: Int32? = bytes.withUnsafeMutableBytes { raw -> Int32? in
            while done < raw.count {
                guard let base = raw.baseAddress else { return nil }
                let got = systemRead(fd, base + done, raw.count - done)
                if got < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if got == 0 { break }
                done += got
            }
            return nil
        }
        if let failure { throw error(failure, path: path, doing: "read") }
        return Array(bytes.prefix(done))
    }

    /// Throws unless `info` is a regular file of at most `limit` bytes.
    private static func checkRegular(_ info: stat, limit: Int, path: String) throws(TileArchiveError) {
        guard info.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
            throw TileArchiveError(.invalid, path: path, "is not a regular file (a device, FIFO, socket or folder)")
        }
        guard Int(info.st_size) <= limit else {
            throw TileArchiveError(.invalid, path: path, "is larger than \(limit >> 20) MiB")
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// Thin wrappers over the POSIX socket calls the server uses.
enum Socket {
    /// A non-blocking TCP socket listening on `host:port` (IPv4 or IPv6 literal, or `localhost`);
    /// port 0 picks a free one. Returns the descriptor and the port bound.
    static func listen(host: String, port: Int, backlog: Int32 = 1024) throws(SocketError) -> (fd: Int32, port: Int) {
        let name = host == "localhost" ? "127.0.0.1" : host
        var storage = sockaddr_storage()
        let length: socklen_t
        let family: Int32
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        guard (0...65535).contains(port) else { throw SocketError("bind", code: EINVAL, detail: "port \(port)") }
        if inet_pton(AF_INET, name, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeBytes(of: v4) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
            (length, family) = (socklen_t(MemoryLayout<sockaddr_in>.size), AF_INET)
        } else if inet_pton(AF_INET6, name, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeBytes(of: v6) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
            (length, family) = (socklen_t(MemoryLayout<sockaddr_in6>.size), AF_INET6)
        } else {
            throw SocketError("bind", code: EINVAL, detail: "\(host) (give an IPv4 or IPv6 address)")
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket") }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let error = SocketError("bind", detail: "\(host):\(port)")
            close(fd)
            throw error
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let error = SocketError("listen")
            close(fd)
            throw error
        }
        return (fd, try localPort(fd))
    }

    /// The port a socket is bound to.
    static func localPort(_ fd: Int32) throws(SocketError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw SocketError("getsockname") }
        if Int32(storage.ss_family) == AF_INET6 {
            return withUnsafeBytes(of: storage) { Int(UInt16(bigEndian: $0.load(as: sockaddr_in6.self).sin6_port)) }
        }
        return withUnsafeBytes(of: storage) { Int(UInt16(bigEndian: $0.load(as: sockaddr_in.self).sin_port)) }
    }

    /// Accepts one connection as a non-blocking socket with TCP_NODELAY; `nil` when none is waiting.
    static func accept(_ listener: Int32) -> Int32? {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    /// Outcome of a read or write.
    enum IO {
        case done(Int)
        case wouldBlock
        case closed
    }

    /// Reads into `scratch`, at most its size.
    static func read(_ fd: Int32, into scratch: UnsafeMutableRawBufferPointer) -> IO {
        let n = Glibc.read(fd, scratch.baseAddress, scratch.count)
        if n > 0 { return .done(n) }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .wouldBlock }
        return .closed
    }

    /// Writes bytes from `buffer[from...]`.
    static func write(_ fd: Int32, _ buffer: [UInt8], from: Int) -> IO {
        let n = buffer.withUnsafeBytes { raw in
            send(fd, raw.baseAddress.map { $0 + from }, raw.count - from, Int32(MSG_NOSIGNAL))
        }
        if n >= 0 { return .done(n) }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock }
        return .closed
    }

    /// Monotonic seconds.
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }
}

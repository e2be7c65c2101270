/// Thin wrappers over the POSIX socket calls the server uses.
enum Socket {
    /// A non-blocking TCP socket listening on `host:port` (IPv4 or IPv6 literal, or `localhost`);
    /// port 0 picks a free one. Returns the descriptor and the port bound. With `reusePort`
    /// (`SO_REUSEPORT`) several sockets of this process listen on one port, the kernel
    /// spreading new connections over them.
    static func listen(host: String, port: Int, backlog: Int32 = 1024, reusePort: Bool = false) throws(SocketError)
        -> (fd: Int32, port: Int)
    {
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
        let fd = Posix.streamSocket(family: family)
        guard fd >= 0 else { throw SocketError("socket") }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if reusePort { setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size)) }
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let error = SocketError("bind", detail: "\(host):\(port)")
            Posix.close(fd)
            throw error
        }
        guard Posix.listen(fd, backlog) == 0 else {
            let error = SocketError("listen")
            Posix.close(fd)
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

    /// Accepts one connection as a non-blocking socket with TCP_NODELAY, with the peer's
    /// address (`192.0.2.1`, `2001:db8::1`); `nil` when none is waiting.
    static func accept(_ listener: Int32) -> (fd: Int32, peer: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Posix.accept(listener, $0, &length) }
        }
        guard fd >= 0 else { return nil }
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        return (fd, address(storage))
    }

    /// The numeric text of an IPv4 or IPv6 socket address; `-` for another family.
    static func address(_ storage: sockaddr_storage) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var storage = storage
        let family = Int32(storage.ss_family)
        let written: UnsafePointer<CChar>? = withUnsafeMutableBytes(of: &storage) { raw in
            guard let base = raw.baseAddress else { return nil }
            if family == AF_INET {
                let v4 = base.assumingMemoryBound(to: sockaddr_in.self)
                return inet_ntop(AF_INET, &v4.pointee.sin_addr, &text, socklen_t(text.count))
            }
            if family == AF_INET6 {
                let v6 = base.assumingMemoryBound(to: sockaddr_in6.self)
                return inet_ntop(AF_INET6, &v6.pointee.sin6_addr, &text, socklen_t(text.count))
            }
            return nil
        }
        guard written != nil else { return "-" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Outcome of a read or write.
    enum IO {
        case done(Int)
        case wouldBlock
        case closed
    }

    /// Reads into `scratch`, at most its size.
    static func read(_ fd: Int32, into scratch: UnsafeMutableRawBufferPointer) -> IO {
        let n = Posix.read(fd, scratch.baseAddress, scratch.count)
        if n > 0 { return .done(n) }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .wouldBlock }
        return .closed
    }

    /// Writes bytes from `buffer[from...]`.
    static func write(_ fd: Int32, _ buffer: [UInt8], from: Int) -> IO {
        let n = buffer.withUnsafeBytes { raw in
            Posix.send(fd, raw.baseAddress.map { $0 + from }, raw.count - from)
        }
        if n >= 0 { return .done(n) }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock }
        return .closed
    }

    /// The most chunks one `writev` takes (the caller's vectors hold this many).
    static let maxVectors = 64

    /// Writes `chunks` in order, the first from `offset`, with one `writev` of at most
    /// ``maxVectors`` of them, straight from their storage (no copy into a send buffer);
    /// `vectors` is the caller's room for them (an event loop's, so nothing is allocated).
    static func write(
        _ fd: Int32, chunks: [[UInt8]], offset: Int, vectors: UnsafeMutableBufferPointer<iovec>
    ) -> IO {
        let count = min(chunks.count, maxVectors, vectors.count)
        guard count > 0, let base = vectors.baseAddress else { return .done(0) }
        let n = gather(chunks, index: 0, count: count, offset: offset, into: base) {
            Posix.writev(fd, base, Int32(count))
        }
        if n >= 0 { return .done(n) }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock }
        return .closed
    }

    /// Fills `vectors[index...]` with the chunks' storage, each pinned for the duration of `body`.
    private static func gather(
        _ chunks: [[UInt8]], index: Int, count: Int, offset: Int, into vectors: UnsafeMutablePointer<iovec>,
        _ body: () -> Int
    ) -> Int {
        if index == count { return body() }
        return chunks[index].withUnsafeBytes { raw in
            let skip = index == 0 ? min(offset, raw.count) : 0
            vectors[index] = iovec(
                iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress.map { $0 + skip }),
                iov_len: raw.count - skip)
            return gather(chunks, index: index + 1, count: count, offset: offset, into: vectors, body)
        }
    }

    /// Monotonic seconds.
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }
}

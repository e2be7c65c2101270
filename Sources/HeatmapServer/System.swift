// The server's one place for the platform: the C library's module, the system calls under
// names no method shadows, and the constants whose spelling differs between Glibc and Darwin
// (swift-nio's `System.swift` is the model). No other file of the module names `Glibc`,
// `Darwin` or a Linux-only symbol; the epoll backend (`EpollPoller.swift`) is the one
// Linux-only file, inside `#if os(Linux)` as a whole. Darwin's spellings are those of XNU's
// headers: `<sys/socket.h>` (`SOCK_STREAM` a plain int, `SO_NOSIGPIPE`, no `MSG_NOSIGNAL`,
// no `accept4` or `SOCK_NONBLOCK`), `<sys/resource.h>` and `<sys/syslimits.h>` (`OPEN_MAX`),
// `<sys/stat.h>` (`st_mtimespec`), and its `poll(2)` (`POLLHUP` once the peer shut its side).

#if canImport(Glibc)
    @_exported import Glibc
    import CEpoll
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#else
    #error("HeatmapServer knows no C library module on this platform")
#endif

private let sysRead = read
private let sysWrite = write
private let sysWritev: @convention(c) (CInt, UnsafePointer<iovec>?, CInt) -> Int = writev
private let sysSend = send
private let sysListen = listen
private let sysAccept = accept
private let sysClose = close
private let sysSocket = socket
private let sysShutdown = shutdown
private let sysOpen: @convention(c) (UnsafePointer<CChar>, CInt, mode_t) -> CInt = { open($0, $1, $2) }

/// The system calls and constants of the server, spelled once for every platform.
enum Posix {
    #if canImport(Glibc)
        /// `SOCK_STREAM` as `socket(2)` takes it (an enum case on Glibc, an `Int32` elsewhere).
        static let streamSocket = CInt(SOCK_STREAM.rawValue)
        /// `RLIMIT_NOFILE` as `getrlimit(2)` takes it (an enum case on Glibc, an `Int32` elsewhere).
        static let descriptorLimit = CInt(RLIMIT_NOFILE.rawValue)
    #else
        /// `SOCK_STREAM` as `socket(2)` takes it (an enum case on Glibc, an `Int32` elsewhere).
        static let streamSocket = SOCK_STREAM
        /// `RLIMIT_NOFILE` as `getrlimit(2)` takes it (an enum case on Glibc, an `Int32` elsewhere).
        static let descriptorLimit = RLIMIT_NOFILE
    #endif

    /// The flags of `send(2)`: no SIGPIPE on a closed peer (Darwin has no `MSG_NOSIGNAL`; its
    /// sockets get `SO_NOSIGPIPE` instead, and the server ignores SIGPIPE anyway).
    #if os(Linux)
        static let sendFlags = CInt(MSG_NOSIGNAL)
    #else
        static let sendFlags: CInt = 0
    #endif

    /// Whether `poll(2)`'s `POLLHUP` means both directions are shut (Linux) rather than only the
    /// peer's (XNU sets it on the read side's end of file, and then leaves `POLLOUT` out).
    #if os(Linux)
        static let pollHangupMeansClosed = true
    #else
        static let pollHangupMeansClosed = false
    #endif

    /// The soft descriptor limit to ask for when the hard one is `hard`: the hard one itself,
    /// but at most `OPEN_MAX` on Darwin, whose `setrlimit` refuses more (EINVAL).
    static func descriptorSoftLimit(hard: rlim_t) -> rlim_t {
        #if canImport(Darwin)
            return min(hard, rlim_t(OPEN_MAX))
        #else
            return hard
        #endif
    }

    /// A non-blocking, close-on-exec TCP socket of `family`; -1 and `errno` on failure.
    static func streamSocket(family: CInt) -> CInt {
        #if canImport(Glibc)
            return sysSocket(family, streamSocket | CInt(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        #elseif os(Linux)
            return sysSocket(family, streamSocket | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)
        #else
            let fd = sysSocket(family, streamSocket, 0)
            if fd >= 0 { prepare(fd) }
            return fd
        #endif
    }

    /// Accepts a connection already non-blocking and close-on-exec (`accept4` on Linux, then
    /// `fcntl` elsewhere); -1 and `errno` when none is waiting or on failure.
    static func accept(
        _ listener: CInt, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>
    ) -> CInt {
        #if os(Linux)
            return cepoll_accept(listener, address, length)
        #else
            let fd = sysAccept(listener, address, length)
            if fd >= 0 { prepare(fd) }
            return fd
        #endif
    }

    #if !os(Linux)
        /// Non-blocking, close-on-exec and no SIGPIPE, what Linux sets in `socket` or `accept4`.
        private static func prepare(_ fd: CInt) {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            #if canImport(Darwin)
                var on: CInt = 1
                _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<CInt>.size))
            #endif
        }
    #endif

    /// `read(2)`.
    @inline(__always)
    static func read(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        sysRead(fd, buffer, count)
    }

    /// `write(2)`.
    @inline(__always)
    static func write(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        sysWrite(fd, buffer, count)
    }

    /// `writev(2)`.
    @inline(__always)
    static func writev(_ fd: CInt, _ vectors: UnsafePointer<iovec>, _ count: CInt) -> Int {
        sysWritev(fd, vectors, count)
    }

    /// `send(2)` with ``sendFlags``.
    @inline(__always)
    static func send(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        sysSend(fd, buffer, count, sendFlags)
    }

    /// `listen(2)`.
    static func listen(_ fd: CInt, _ backlog: CInt) -> CInt { sysListen(fd, backlog) }

    /// `close(2)`.
    @discardableResult
    static func close(_ fd: CInt) -> CInt { sysClose(fd) }

    /// `shutdown(fd, SHUT_WR)`: the write side.
    static func shutdownWrite(_ fd: CInt) { _ = sysShutdown(fd, CInt(SHUT_WR)) }

    /// `open(2)` with a mode for a created file.
    static func open(_ path: String, _ flags: CInt, mode: mode_t) -> CInt { sysOpen(path, flags, mode) }
}

extension stat {
    /// The last modification (`st_mtim` on Linux, `st_mtimespec` on Darwin).
    var modificationTime: timespec {
        #if canImport(Darwin)
            st_mtimespec
        #else
            st_mtim
        #endif
    }
}

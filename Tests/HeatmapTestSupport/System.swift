// The tests' one place for the platform: the C library's module (exported to the test targets
// through this one), and the spellings that differ between Glibc and Darwin. No other file of
// the tests names `Glibc`, `Darwin` or a Linux-only symbol.

#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#else
    #error("HeatmapTestSupport knows no C library module on this platform")
#endif

/// Socket calls of the tests' clients and upstreams, spelled once for every platform.
public enum TestSocket {
    /// A blocking TCP socket (IPv4), SIGPIPE-free on Darwin (`SO_NOSIGPIPE`, as it has no
    /// `MSG_NOSIGNAL`); -1 on failure.
    public static func tcp() -> Int32 {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        #if canImport(Darwin)
            if fd >= 0 {
                var on: Int32 = 1
                setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            }
        #endif
        return fd
    }

    /// `send(2)`, with no SIGPIPE on a closed peer.
    public static func send(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if os(Linux)
            return systemSend(fd, buffer, count, Int32(MSG_NOSIGNAL))
        #else
            return systemSend(fd, buffer, count, 0)
        #endif
    }

    #if canImport(Glibc)
        /// `RLIMIT_NOFILE` as `getrlimit(2)` takes it (an enum case on Glibc).
        public static let descriptorLimit = Int32(RLIMIT_NOFILE.rawValue)
    #else
        /// `RLIMIT_NOFILE` as `getrlimit(2)` takes it.
        public static let descriptorLimit = RLIMIT_NOFILE
    #endif

    /// A receive and send timeout of `seconds` for `setsockopt` (`tv_usec` is an `Int32` on Darwin).
    public static func timeout(_ seconds: Double) -> timeval {
        timeval(
            tv_sec: time_t(seconds.rounded(.down)), tv_usec: suseconds_t((seconds - seconds.rounded(.down)) * 1e6))
    }
}

private let systemSend = send

#if canImport(Darwin)
    /// `posix_spawn` file actions before `posix_spawn_file_actions_init` (a pointer on Darwin).
    public typealias SpawnFileActions = posix_spawn_file_actions_t?
    /// Empty file actions, to pass to `posix_spawn_file_actions_init`.
    public func emptySpawnFileActions() -> SpawnFileActions { nil }
    /// `posix_spawn` attributes before `posix_spawnattr_init` (a pointer on Darwin).
    public typealias SpawnAttributes = posix_spawnattr_t?
    /// Empty attributes, to pass to `posix_spawnattr_init`.
    public func emptySpawnAttributes() -> SpawnAttributes { nil }
    /// Has the spawned program inherit no descriptor but those `actions` give it (0, 1 and 2),
    /// so that a server it starts holds no pipe of a command another test runs meanwhile (its
    /// reader would wait for an end that never comes): `POSIX_SPAWN_CLOEXEC_DEFAULT` on Darwin.
    public func inheritOnlyStandardDescriptors(
        _ actions: inout SpawnFileActions, _ attributes: inout SpawnAttributes
    ) {
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
    }
#else
    /// `posix_spawn` file actions before `posix_spawn_file_actions_init` (a struct on Glibc).
    public typealias SpawnFileActions = posix_spawn_file_actions_t
    /// Empty file actions, to pass to `posix_spawn_file_actions_init`.
    public func emptySpawnFileActions() -> SpawnFileActions { posix_spawn_file_actions_t() }
    /// `posix_spawn` attributes before `posix_spawnattr_init` (a struct on Glibc).
    public typealias SpawnAttributes = posix_spawnattr_t
    /// Empty attributes, to pass to `posix_spawnattr_init`.
    public func emptySpawnAttributes() -> SpawnAttributes { posix_spawnattr_t() }
    /// Has the spawned program inherit no descriptor but those `actions` give it (0, 1 and 2),
    /// so that a server it starts holds no pipe of a command another test runs meanwhile (its
    /// reader would wait for an end that never comes): a file action closing 3 and above
    /// (glibc 2.34's `posix_spawn_file_actions_addclosefrom_np`, which the Glibc module does not
    /// show Swift: found by name; without it, nothing is added).
    public func inheritOnlyStandardDescriptors(
        _ actions: inout SpawnFileActions, _ attributes: inout SpawnAttributes
    ) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
#endif

/// The process's environment as `posix_spawn` takes it (`environ`; Darwin's is behind
/// `_NSGetEnviron()`).
public var processEnvironment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
    #if canImport(Darwin)
        _NSGetEnviron().pointee
    #else
        environ
    #endif
}

/// Whether `/proc` describes processes here (Linux): the tests that read it run only then.
public let hasProcFileSystem = access("/proc/self/status", R_OK) == 0

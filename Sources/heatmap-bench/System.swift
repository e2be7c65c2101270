// The benchmark's one place for the platform: the C library's module (exported to every file
// of the module), the socket type's spelling and the calling thread's resource usage. No other
// file of the module names `Glibc`, `Darwin` or a Linux-only symbol. The figures that come
// from `/proc` (peak memory, CPU model) read as zero or empty where it is missing.

#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#else
    #error("heatmap-bench knows no C library module on this platform")
#endif

/// `SOCK_STREAM` as `socket(2)` takes it (an enum case on Glibc, an `Int32` elsewhere).
#if canImport(Glibc)
    let streamSocketType = Int32(SOCK_STREAM.rawValue)
#else
    let streamSocketType = SOCK_STREAM
#endif

/// The calling thread's resource usage (`getrusage(RUSAGE_THREAD)`, Linux only); `nil` where
/// the platform has no per-thread usage.
func threadResourceUsage() -> rusage? {
    #if os(Linux)
        var usage = rusage()
        // RUSAGE_THREAD is 1 (<sys/resource.h>, GNU); Glibc's Swift module leaves it out.
        guard getrusage(__rusage_who_t(1), &usage) == 0 else { return nil }
        return usage
    #else
        return nil
    #endif
}

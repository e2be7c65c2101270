// The command's one place for the platform: the C library's module, exported to every file of
// the module. No other file of the module names `Glibc`, `Darwin` or a Linux-only symbol.

#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#else
    #error("heatmap knows no C library module on this platform")
#endif

/// A signal handler as `signal(2)` takes and returns it (`sighandler_t` on Glibc, `sig_t` on
/// Darwin: the same C function type).
typealias SignalHandler = @convention(c) (Int32) -> Void

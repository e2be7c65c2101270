// HeatmapKit's one place for the platform: the C library's module (exported to every file of
// the module) and the calls that a method of the same name would shadow. No other file of the
// module names `Glibc`, `Darwin` or a Linux-only symbol; the library needs nothing of the
// platform that an Apple SDK lacks.

#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#else
    #error("HeatmapKit knows no C library module on this platform")
#endif

/// `close(2)`, for code inside types with a `close` of their own.
let closeFile = close
/// `read(2)`, for code inside types with a `read` of their own.
let readFile = read

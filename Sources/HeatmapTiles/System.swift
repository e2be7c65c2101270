// HeatmapTiles' one place for the platform: the C library's module (exported to every file
// of the module) and the calls that a method of the same name would shadow. No other file of
// the module names `Glibc`, `Darwin` or a Linux-only symbol.

#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#else
    #error("HeatmapTiles knows no C library module on this platform")
#endif

/// `write(2)`, for code inside types with a `write` of their own.
let systemWrite = write
/// `rename(2)`, for code inside types with a `rename` of their own.
let systemRename = rename
/// `read(2)`, for code inside types with a `read` of their own.
let systemRead = read

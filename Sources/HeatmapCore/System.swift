// The core's one place for the platform: the few functions of the C maths library it needs.
// The import is not exported, so the core's clients see no C library through it.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#else
    #error("HeatmapCore knows no C library module on this platform")
#endif

@inline(__always) func mathExp(_ x: Double) -> Double { exp(x) }
@inline(__always) func mathLog(_ x: Double) -> Double { log(x) }
@inline(__always) func mathSin(_ x: Double) -> Double { sin(x) }
@inline(__always) func mathAtan(_ x: Double) -> Double { atan(x) }
@inline(__always) func mathSinh(_ x: Double) -> Double { sinh(x) }
@inline(__always) func mathCos(_ x: Double) -> Double { cos(x) }

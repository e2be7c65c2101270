#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The few functions of the platform's maths library the core needs, in one place.

@inline(__always) func mathExp(_ x: Double) -> Double { exp(x) }
@inline(__always) func mathLog(_ x: Double) -> Double { log(x) }
@inline(__always) func mathSin(_ x: Double) -> Double { sin(x) }
@inline(__always) func mathAtan(_ x: Double) -> Double { atan(x) }
@inline(__always) func mathSinh(_ x: Double) -> Double { sinh(x) }
@inline(__always) func mathCos(_ x: Double) -> Double { cos(x) }

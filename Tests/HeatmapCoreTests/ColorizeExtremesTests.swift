import Testing

@testable import HeatmapCore

/// Colouring with any normalisation value M > 0 against any intensities: never a trap, and
/// every pixel the entry min(n − 1, ⌊I / M · (n − 1)⌋) of the definition.
@Suite struct ColorizeExtremesTests {
    /// M from the smallest subnormal to the largest double, the reproducers' values among them.
    static let maxima: [Double] = [
        .leastNonzeroMagnitude, 4e-45, Double(Float.leastNonzeroMagnitude), .leastNormalMagnitude, 1e-300, 1e-20,
        1e-15, 1e-7, 0.5, 1, 3, 1e10, 1e38, Double(Float.greatestFiniteMagnitude), 1e300, .greatestFiniteMagnitude,
    ]

    /// Intensities from Float's smallest subnormal to its largest, with zeros between.
    static let intensities: [Float] = [
        0, .leastNonzeroMagnitude, Float(bitPattern: 0x0001_0000), .leastNormalMagnitude, 1e-20, 1e-7, 0.25, 1, 2.5,
        1e10, 1e30, 1e38,
        .greatestFiniteMagnitude, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3,
    ]

    /// The definition, in double precision: I / M at or above 1 is the last entry.
    static func entry(_ intensity: Float, maximum: Double, count: Int) -> Int {
        let q = Double(intensity) / maximum
        guard q < 1 else { return count - 1 }
        return min(count - 1, Int((q * Double(count - 1)).rounded(.down)))
    }

    @Test("any M > 0 colours every pixel as the definition says", arguments: maxima)
    func anyMaximum(maximum: Double) throws {
        for size in [2, 256, 1000] {
            let gradient = try Gradient(
                colors: [RGBAColor(red: 0, green: 0, blue: 255), RGBAColor(red: 255, green: 0, blue: 0)],
                startPoints: [0, 1], colorMapSize: size)
            let map = ColorMap(gradient: gradient, opacity: 1)
            let values = Self.intensities
            let grid = IntensityGrid(
                width: values.count, height: 1, values: values, maximum: values.max() ?? 0, isEmpty: false)
            let image = map.colorize(grid, maximum: maximum)
            for (x, v) in values.enumerated() {
                guard v > 0 else {
                    #expect(image[x, 0] == (0, 0, 0, 0))
                    continue
                }
                let q = Double(v) / maximum * Double(size - 1)
                // Where I / M · (n − 1) is within rounding of a whole number, either side is right.
                if q < Double(size), abs(q - q.rounded()) < 1e-9 * max(1, q) { continue }
                let e = 4 * Self.entry(v, maximum: maximum, count: size)
                #expect(
                    image[x, 0] == (map.entries[e], map.entries[e + 1], map.entries[e + 2], map.entries[e + 3]),
                    "I = \(v), M = \(maximum), n = \(size)")
            }
        }
    }

    @Test("M of 0, −0, a negative, infinite or NaN value gives a transparent image, never a trap")
    func unusableMaximum() {
        let map = ColorMap(gradient: .default, opacity: 1)
        let grid = IntensityGrid(
            width: 3, height: 1, values: [1, .greatestFiniteMagnitude, 0], maximum: 1, isEmpty: false)
        for maximum in [0, -0.0, -1, -.leastNonzeroMagnitude, .infinity, -.infinity, .nan] {
            #expect(map.colorize(grid, maximum: maximum).pixels.allSatisfy { $0 == 0 })
        }
    }

    @Test("infinite and NaN intensities (never made by the engine) take the last entry and stay transparent")
    func unusableIntensities() {
        let map = ColorMap(gradient: .default, opacity: 1)
        let grid = IntensityGrid(
            width: 10, height: 1, values: [.infinity, .nan, -.infinity, -1, 0, 1, 1, 1, 1, 1], maximum: 1,
            isEmpty: false)
        let image = map.colorize(grid, maximum: 1e-300)
        let last = 4 * (map.count - 1)
        #expect(image[0, 0] == (map.entries[last], map.entries[last + 1], map.entries[last + 2], map.entries[last + 3]))
        for x in 1...4 { #expect(image[x, 0] == (0, 0, 0, 0)) }
    }

    @Test("seeded random intensities and maxima over the whole float range: the definition holds")
    func randomProperty() {
        var random = SplitMix64(seed: 15)
        let map = ColorMap(gradient: .default, opacity: 0.7)
        for _ in 0..<200 {
            let values = (0..<64).map { _ -> Float in
                let r = random.next()
                if r % 3 == 0 { return 0 }
                return Float(bitPattern: UInt32(truncatingIfNeeded: r >> 8) % 0x7F80_0000)  // any finite, ≥ 0
            }
            let bits = random.next() % 0x7FF0_0000_0000_0000
            let maximum = bits == 0 ? 1 : Double(bitPattern: bits)  // any finite, > 0
            let grid = IntensityGrid(width: 64, height: 1, values: values, maximum: 0, isEmpty: false)
            let image = map.colorize(grid, maximum: maximum)
            for (x, v) in values.enumerated() {
                if v == 0 {
                    #expect(image[x, 0] == (0, 0, 0, 0))
                    continue
                }
                let q = Double(v) / maximum * Double(map.count - 1)
                if q < Double(map.count), abs(q - q.rounded()) < 1e-9 * max(1, q) { continue }
                let e = 4 * Self.entry(v, maximum: maximum, count: map.count)
                #expect(image[x, 0] == (map.entries[e], map.entries[e + 1], map.entries[e + 2], map.entries[e + 3]))
            }
        }
    }
}

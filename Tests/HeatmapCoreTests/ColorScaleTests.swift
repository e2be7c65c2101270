import Testing

@testable import HeatmapCore

/// sqrt and log colour scales against the plain definition (``ReferenceRenderer/colorEntry``),
/// and the thresholds the fast path is built on.
@Suite struct ColorScaleTests {
    /// Intensities spread over many decades below and above M = 1, zeros among them.
    static func intensities(seed: UInt64, count: Int) -> [Float] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { i in
            if i % 7 == 0 { return 0 }
            let unit = Double(random.next() >> 11) / Double(1 << 53)
            return Float(unit * 1.2 * (i % 3 == 0 ? pow10(-Double(random.next() % 6)) : 1))
        }
    }

    static func pow10(_ e: Double) -> Double { (0..<Int(-e)).reduce(1.0) { acc, _ in acc / 10 } }

    @Test(
        "every pixel takes the entry of the definition", arguments: [ColorScale.linear, .sqrt, .log],
        [2, 17, 256, 1000, 4099])
    func matchesReference(scale: ColorScale, size: Int) throws {
        let gradient = try #require(Gradient.preset(named: "viridis", colorMapSize: size))
        let map = ColorMap(gradient: gradient, opacity: 1, scale: scale)
        let values = Self.intensities(seed: UInt64(size), count: 4000)
        let grid = IntensityGrid(width: 80, height: 50, values: values, maximum: values.max() ?? 0, isEmpty: false)
        for maximum in [1.0, 0.37, 1e-6, 3e5] {
            let scaled = values.map { Float(Double($0) * maximum) }
            let scaledGrid = IntensityGrid(
                width: grid.width, height: grid.height, values: scaled, maximum: 0, isEmpty: false)
            let image = map.colorize(scaledGrid, maximum: maximum)
            var mismatches = 0
            for (i, v) in scaled.enumerated() {
                let pixel = image[i % grid.width, i / grid.width]
                guard
                    let e = ReferenceRenderer.colorEntry(
                        intensity: Double(v), maximum: maximum, count: size, scale: scale)
                else {
                    #expect(pixel == (0, 0, 0, 0))
                    continue
                }
                let want = (map.entries[4 * e], map.entries[4 * e + 1], map.entries[4 * e + 2], map.entries[4 * e + 3])
                if pixel != want { mismatches += 1 }
            }
            #expect(mismatches == 0, "\(scale) n = \(size) M = \(maximum)")
        }
    }

    @Test("thresholds rise from 0 to 1 and invert the curve", arguments: [ColorScale.linear, .sqrt, .log])
    func thresholds(scale: ColorScale) {
        let t = scale.thresholds(count: 1000)
        #expect(t.first == 0 && t.last == 1)
        #expect(zip(t, t.dropFirst()).allSatisfy { $0 < $1 })
        for (e, tau) in t.enumerated() {
            #expect(abs(scale.curve(tau) - Double(e) / 999) < 1e-9)
        }
    }

    @Test("sqrt and log lift sparse pixels: 1% of M is 10% and 34.7% of the way up, 10% of M 66.8% with log")
    func documentedPoints() {
        #expect(ReferenceRenderer.colorEntry(intensity: 0.0101, maximum: 1, count: 1001, scale: .sqrt) == 100)
        #expect(ReferenceRenderer.colorEntry(intensity: 0.0101, maximum: 1, count: 1001, scale: .linear) == 10)
        #expect(ReferenceRenderer.colorEntry(intensity: 0.01, maximum: 1, count: 1001, scale: .log) == 347)
        #expect(ReferenceRenderer.colorEntry(intensity: 0.1, maximum: 1, count: 1001, scale: .log) == 668)
        #expect(ReferenceRenderer.colorEntry(intensity: 0.001, maximum: 1, count: 1001, scale: .log) == 100)
    }

    @Test("I ≥ M takes the last entry; infinite and NaN intensities too, never a trap")
    func extremes() {
        for scale in [ColorScale.sqrt, .log] {
            let map = ColorMap(gradient: .default, opacity: 1, scale: scale)
            let grid = IntensityGrid(
                width: 6, height: 1, values: [.infinity, .nan, 1, 5, .leastNonzeroMagnitude, 0], maximum: 1,
                isEmpty: false)
            for maximum in [1.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude] {
                let image = map.colorize(grid, maximum: maximum)
                let last = 4 * (map.count - 1)
                let top = (map.entries[last], map.entries[last + 1], map.entries[last + 2], map.entries[last + 3])
                #expect(image[0, 0] == top)
                #expect(image[1, 0] == (0, 0, 0, 0))  // NaN is not > 0
                #expect(image[5, 0] == (0, 0, 0, 0))
                if maximum <= 1 { #expect(image[2, 0] == top && image[3, 0] == top) }
            }
        }
    }
}

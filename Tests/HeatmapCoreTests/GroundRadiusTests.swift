import HeatmapCore
import Testing

/// The radius in metres: R(z, s) = ⌊metres / g(φ₀, z, s) + ½⌋ clamped to 1...128·s.
@Suite struct GroundRadiusTests {
    @Test("metres per pixel are Web Mercator's at the reference latitude")
    func groundResolution() throws {
        let equator = try GroundRadius(meters: 1000, latitude: 0)
        #expect(abs(equator.metersPerPixel(zoom: 0, scale: 1) - 156_543.033_928) < 1e-5)
        #expect(abs(equator.metersPerPixel(zoom: 10, scale: 2) - 156_543.033_928 / 2048) < 1e-8)
        let sixty = try GroundRadius(meters: 1000, latitude: 60)
        #expect(abs(sixty.metersPerPixel(zoom: 5, scale: 1) / equator.metersPerPixel(zoom: 5, scale: 1) - 0.5) < 1e-12)
        // 1,000 km at the equator, zoom 0: 6.39 pixels, rounded to 6.
        #expect(try GroundRadius(meters: 1_000_000, latitude: 0).pixels(zoom: 0, scale: 1) == 6)
    }

    @Test("the radius doubles per zoom (exactly before rounding, within a pixel after)")
    func doublesPerZoom() throws {
        for (meters, latitude) in [(500.0, -37.8), (2000, 0), (25_000, 60), (120, 45)] {
            let radius = try GroundRadius(meters: meters, latitude: latitude)
            for scale in 1...3 {
                for zoom in 0..<22 {
                    let exact = radius.exactPixels(zoom: zoom, scale: scale)
                    #expect(radius.exactPixels(zoom: zoom + 1, scale: scale) == 2 * exact)
                    let r = radius.pixels(zoom: zoom, scale: scale)
                    let next = radius.pixels(zoom: zoom + 1, scale: scale)
                    if exact >= 1, 2 * exact + 0.5 < Double(128 * scale) {
                        #expect(
                            abs(next - 2 * r) <= 1, "\(meters) m at \(latitude)°, z\(zoom) s\(scale): \(r) → \(next)")
                    }
                }
            }
        }
    }

    @Test("under a pixel it is 1 pixel; beyond 128 points it holds at 128 × scale")
    func clamped() throws {
        let tiny = try GroundRadius(meters: 1, latitude: 0)
        #expect(tiny.pixels(zoom: 0, scale: 1) == 1)
        #expect(!tiny.isClamped(zoom: 0, scale: 1))
        let huge = try GroundRadius(meters: 1e300, latitude: 85)
        for scale in 1...3 {
            #expect(huge.pixels(zoom: 22, scale: scale) == 128 * scale)
            #expect(huge.isClamped(zoom: 22, scale: scale))
        }
        let city = try GroundRadius(meters: 1000, latitude: 0)
        #expect(city.pixels(zoom: 16, scale: 1) == 128)
        #expect(city.pixels(zoom: 12, scale: 1) == Int((city.exactPixels(zoom: 12, scale: 1) + 0.5).rounded(.down)))
        #expect(!city.isClamped(zoom: 12, scale: 1))
        // Latitudes beyond the Mercator square are measured at its edge, never at cos 90° = 0.
        #expect(try GroundRadius(meters: 10, latitude: 90).pixels(zoom: 22, scale: 3) == 384)
    }

    @Test("unusable metres and latitudes are errors that say why")
    func errors() {
        for (meters, latitude, words) in [
            (0.0, 0.0, "metres"), (-5, 0, "metres"), (.nan, 0, "metres"), (.infinity, 0, "metres"),
            (100, 91, "latitude"), (100, .nan, "latitude"),
        ] {
            #expect {
                _ = try GroundRadius(meters: meters, latitude: latitude)
            } throws: { error in
                (error as? HeatmapError)?.description.contains(words) ?? false
            }
        }
    }
}

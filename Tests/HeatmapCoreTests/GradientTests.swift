import HeatmapCore
import Testing

@Suite struct GradientTests {
    static let red = RGBAColor(red: 255, green: 0, blue: 0)
    static let blue = RGBAColor(red: 0, green: 0, blue: 255)

    @Test(
        "invalid gradients are rejected with a reason",
        arguments: [
            ([RGBAColor](), [Double](), 1000, "no colours"),
            ([red, blue], [0.5], 1000, "2 colours but 1 start points"),
            ([red, blue], [0.6, 0.5], 1000, "must increase"),
            ([red, blue], [0.5, 0.5], 1000, "must increase"),
            ([red, blue], [-0.1, 0.5], 1000, "outside 0...1"),
            ([red, blue], [0.5, 1.5], 1000, "outside 0...1"),
            ([red, blue], [Double.nan, 1], 1000, "outside 0...1"),
            ([red, blue], [0.2, 1], 1, "colorMapSize 1"),
            ([red, blue], [0.2, 1], 0, "colorMapSize 0"),
        ])
    func invalid(colors: [RGBAColor], startPoints: [Double], size: Int, expected: String) {
        #expect {
            _ = try Gradient(colors: colors, startPoints: startPoints, colorMapSize: size)
        } throws: { error in
            guard case .invalidGradient(let reason) = error as? HeatmapError else { return false }
            return reason.contains(expected)
        }
    }

    @Test("Google's default: transparent at 0, green at 0.2, red at the top")
    func defaultGradient() {
        let g = Gradient.default
        #expect(g.colorMapSize == 1000)
        #expect(g.color(atEntry: 0).alpha == 0)
        #expect(g.color(atEntry: 0).green == 225)  // fades in from the first colour, not from black
        let green = g.color(atEntry: Int((0.2 * 999).rounded(.up)))
        #expect(green == RGBAColor(red: 102, green: 225, blue: 0))
        #expect(g.color(atEntry: 999) == RGBAColor(red: 255, green: 0, blue: 0))
        // Halfway through the fade-in: half the alpha.
        #expect(abs(Int(g.color(atEntry: 100).alpha) - 128) <= 1)
    }

    @Test("hue takes the short way round the wheel, through magenta from red to blue")
    func shortHuePath() throws {
        let g = try Gradient(colors: [Self.red, Self.blue], startPoints: [0, 1], colorMapSize: 3)
        #expect(g.color(atEntry: 0) == Self.red)
        #expect(g.color(atEntry: 1) == RGBAColor(red: 255, green: 0, blue: 255))
        #expect(g.color(atEntry: 2) == Self.blue)
    }

    @Test("alpha is interpolated and the last colour holds above the last start point")
    func alphaAndTail() throws {
        let clear = RGBAColor(red: 255, green: 0, blue: 0, alpha: 0)
        let g = try Gradient(colors: [clear, Self.red], startPoints: [0, 0.5], colorMapSize: 5)
        #expect(g.color(atEntry: 1).alpha == 128)
        #expect(g.color(atEntry: 2) == Self.red)
        #expect(g.color(atEntry: 4) == Self.red)
    }

    @Test("a colour map applies opacity to alpha")
    func opacity() throws {
        let map = ColorMap(gradient: try Gradient(colors: [Self.red], startPoints: [0], colorMapSize: 2), opacity: 0.5)
        #expect(map.count == 2)
        #expect(Array(map.entries[4..<8]) == [255, 0, 0, 128])
    }

    @Test("colourising: 0 is transparent, the maximum takes the last entry, indices floor")
    func colorize() throws {
        let g = try Gradient(
            colors: [RGBAColor(red: 0, green: 0, blue: 0), RGBAColor(red: 0, green: 0, blue: 255)],
            startPoints: [0, 1],
            colorMapSize: 5)
        let map = ColorMap(gradient: g, opacity: 1)
        let index = try PointIndex(points: [
            WeightedLatLng(coordinate: Coordinate(latitude: 0, longitude: 0), intensity: 4)
        ])
        let space = try PixelSpace(zoom: 0, scale: 1)
        let grid = index.intensity(
            in: PixelRect(tileX: 0, y: 0, in: space), space: space, kernel: GaussianKernel(radius: 10))
        let image = map.colorize(grid, maximum: 4)
        #expect(image[128, 128] == (0, 0, 255, 255))  // I = M: last entry
        #expect(image[0, 0] == (0, 0, 0, 0))  // I = 0: transparent
        // I/M = k(5) ≈ 0.32 with R = 10: entry floor(0.32 · 4) = 1, a dark magenta (HSV from black).
        #expect(image[133, 128] == (64, 48, 56, 255))
        // I/M = k(5)² ≈ 0.11: entry 0, black, opaque (a start point at 0: no fade-in).
        #expect(image[133, 133] == (0, 0, 0, 255))
        // Above M (a fixed maximum too low) saturates at the last entry.
        #expect(map.colorize(grid, maximum: 1)[130, 128] == (0, 0, 255, 255))
    }

    @Test(
        "colourising any width, pixel by pixel: zeros transparent, others entry ⌊I / M · (count − 1)⌋",
        arguments: [1, 7, 13, 37])
    func colorizeEveryPixel(width: Int) throws {
        let map = ColorMap(gradient: .default, opacity: 0.7)
        let space = try PixelSpace(zoom: 3, scale: 1)
        let points = [(10.0, 20.0, 2.0), (10.3, 21.0, 1.0)].map {
            WeightedLatLng(coordinate: Coordinate(latitude: $0.0, longitude: $0.1), intensity: $0.2)
        }
        let index = try PointIndex(points: points)
        let (px, py) = space.pixel(of: points[0].coordinate)
        // Columns from inside the reach of the points to beyond it: some pixels are 0.
        let rect = PixelRect(x: px - 3, y: py - 2, width: width, height: 5)
        let grid = index.intensity(in: rect, space: space, kernel: GaussianKernel(radius: 10))
        let maximum = Double(grid.maximum) * 0.9
        let image = map.colorize(grid, maximum: maximum)
        var zeros = 0
        for y in 0..<grid.height {
            for x in 0..<grid.width {
                let v = grid[x, y]
                if v <= 0 {
                    zeros += 1
                    #expect(image[x, y] == (0, 0, 0, 0))
                    continue
                }
                let e = 4 * min(map.count - 1, Int(Double(v) * Double(map.count - 1) / maximum))
                #expect(image[x, y] == (map.entries[e], map.entries[e + 1], map.entries[e + 2], map.entries[e + 3]))
            }
        }
        #expect(zeros < grid.width * grid.height)
        #expect(width < 37 || zeros > 0)
    }

    @Test("hex colours parse and print")
    func hex() {
        #expect(RGBAColor(hex: "#ff0000") == Self.red)
        #expect(RGBAColor(hex: "00f") == Self.blue)
        #expect(RGBAColor(hex: "#0000ff80")?.alpha == 128)
        #expect(RGBAColor(hex: "#12345") == nil)
        #expect(RGBAColor(hex: "#gg0000") == nil)
        #expect(Self.red.hex == "#ff0000ff")
    }
}

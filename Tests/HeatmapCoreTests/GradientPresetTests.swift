import Testing

@testable import HeatmapCore

/// The named gradients: every name, matplotlib's end colours, `colorMapSize` honoured.
@Suite struct GradientPresetTests {
    @Test("every preset name gives a gradient of the size asked for", arguments: Gradient.presetNames)
    func everyName(name: String) throws {
        let preset = try #require(Gradient.preset(named: name))
        #expect(preset.colorMapSize == 1000)
        for size in [2, 256, 4096] { #expect(Gradient.preset(named: name, colorMapSize: size)?.colorMapSize == size) }
        #expect(Gradient.preset(named: name, colorMapSize: 1) == nil)
        #expect(try Gradient.parse(name) == preset)
    }

    @Test("default is Google's; the ramps end on matplotlib's colours and fade in below 0.05")
    func colours() throws {
        #expect(Gradient.preset(named: "default") == .default)
        let ends: [(String, RGBAColor, RGBAColor)] = [
            ("viridis", RGBAColor(red: 0x44, green: 0x01, blue: 0x54), RGBAColor(red: 0xFD, green: 0xE7, blue: 0x25)),
            ("inferno", RGBAColor(red: 0, green: 0, blue: 4), RGBAColor(red: 0xFC, green: 0xFF, blue: 0xA4)),
            ("magma", RGBAColor(red: 0, green: 0, blue: 4), RGBAColor(red: 0xFC, green: 0xFD, blue: 0xBF)),
            ("turbo", RGBAColor(red: 0x30, green: 0x12, blue: 0x3B), RGBAColor(red: 0x7A, green: 0x04, blue: 0x03)),
            ("cividis", RGBAColor(red: 0, green: 0x22, blue: 0x4E), RGBAColor(red: 0xFE, green: 0xE8, blue: 0x38)),
        ]
        for (name, low, high) in ends {
            let g = try #require(Gradient.preset(named: name))
            #expect(g.colors.count == 33 && g.startPoints.first == Gradient.presetFadeIn && g.startPoints.last == 1)
            #expect(g.colors.first == low && g.colors.last == high, "\(name)")
            #expect(g.color(atEntry: 999) == high)
            #expect(g.color(atEntry: 0).alpha == 0)
        }
    }

    @Test("stops parse; unknown names, bad stops and sizes are named errors")
    func parsing() throws {
        let custom = try Gradient.parse("#0000ff:0.2,ff0000:1")
        #expect(custom.colors.count == 2 && custom.colorMapSize == 256)
        #expect(try Gradient.parse("0000ff:0.2,ff0000:1", colorMapSize: 10).colorMapSize == 10)
        #expect(throws: HeatmapError.self) { try Gradient.parse("rainbow") }
        #expect(throws: HeatmapError.self) { try Gradient.parse("ff0000:1,00ff00:0.5") }
        #expect(throws: HeatmapError.self) { try Gradient.parse("viridis", colorMapSize: 0) }
        #expect(throws: HeatmapError.self) { try Gradient.parse("viridis", colorMapSize: Int.max) }
    }
}

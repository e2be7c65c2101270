import Foundation
import HeatmapCore
import Testing

@testable import HeatmapKit

/// `HeatmapTileLayer` settings, data and tile coordinates over their accepted ranges and
/// beyond: each request is a tile (whose PNG decodes) or a typed error, never a trap.
@Suite struct SettingsExtremesTests {
    static let doubles: [Double] = [
        0, -0.0, .leastNonzeroMagnitude, 4e-45, Double(Float.leastNonzeroMagnitude), .leastNormalMagnitude, 1e-300,
        1e-20, 1e-15, 1e-7, 0.5, 1, 1.0.nextUp, 2, 1e15, 1e38, Double(Float.greatestFiniteMagnitude), 1e300,
        .greatestFiniteMagnitude, -1, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan,
    ]
    static let integers = [Int.min, Int.min + 1, -1, 0, 1, 9, 10, 11, 49, 50, 51, 1 << 31, Int.max - 1, Int.max]

    /// Melbourne at zoom 6, the reproducer tile.
    static let tile = (x: 57, y: 39, zoom: 6)

    func expectTileOrError(_ layer: HeatmapTileLayer, valid: Bool, _ what: String) {
        do {
            let result = try layer.tileFor(x: Self.tile.x, y: Self.tile.y, zoom: Self.tile.zoom, scale: 2)
            #expect(valid, "\(what) was accepted")
            let image = result.decoded
            #expect(image?.width == 512, "\(what)")
        } catch {
            #expect(!valid, "\(what): \(error)")
            #expect(!error.description.isEmpty)
        }
    }

    @Test("maximumIntensity: any finite M > 0 draws (the reproducers among them), others throw", arguments: doubles)
    func maximumIntensity(value: Double) {
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations)
        layer.maximumIntensity = value
        expectTileOrError(layer, valid: value.isFinite && value > 0, "max \(value)")
    }

    @Test("the issue's reproducer: max 4e-45 and 1e-15 colour every pixel within reach with the last entry")
    func reproducer() throws {
        for maximum in [4e-45, 1e-15, 1e-300, .leastNonzeroMagnitude] {
            let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations)
            layer.maximumIntensity = maximum
            let image = try #require(try layer.tileFor(x: 57, y: 39, zoom: 6).decoded)
            let last = ColorMap(gradient: .default, opacity: 0.7).entries.suffix(4)
            let grid = try #require(try layer.intensity(x: 57, y: 39, zoom: 6))
            for i in stride(from: 0, to: grid.values.count, by: 97) where grid.values[i] > 0 {
                #expect(Array(image.pixels[(4 * i)..<(4 * i + 4)]) == Array(last))
            }
        }
    }

    @Test("opacity: 0...1 draws, anything else throws", arguments: doubles)
    func opacity(value: Double) {
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations)
        layer.opacity = value
        expectTileOrError(layer, valid: (0...1).contains(value), "opacity \(value)")
    }

    @Test("radius: 10...50 draws, anything else throws", arguments: integers)
    func radius(value: Int) {
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations)
        layer.radius = value
        expectTileOrError(layer, valid: (10...50).contains(value), "radius \(value)")
    }

    @Test("settings for one request: the same ranges, through tileFor(settings:) and intensity")
    func requestSettings() throws {
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations)
        var answered = 0
        for (radius, maximum) in zip(Self.integers + Self.integers, Self.doubles + Self.doubles.reversed()) {
            let settings = HeatmapSettings(radius: radius, opacity: 0.5, maximumIntensity: maximum)
            do {
                _ = try layer.tileFor(x: 57, y: 39, zoom: 6, settings: settings)
                answered += 1
            } catch {
                #expect(!((10...50).contains(radius) && maximum.isFinite && maximum > 0))
            }
        }
        #expect(answered > 0)
    }

    @Test("weights at the extremes: a tile with finite M(z), or the point named", arguments: doubles)
    func weights(value: Double) throws {
        let points = Fixtures.policeStations.prefix(20).map {
            WeightedLatLng(coordinate: $0.coordinate, intensity: value)
        }
        let layer = HeatmapTileLayer(weightedData: Array(points))
        let valid = value.isFinite && value >= 0 && 20 * Double(Float(value)) <= PointIndex.maximumTotalWeight
        do {
            let m = try layer.normalization(zoom: 6, scale: 1)
            #expect(valid, "weight \(value)")
            #expect(m.isFinite && m >= 0)
            _ = try layer.tileFor(x: 57, y: 39, zoom: 6)
        } catch {
            #expect(!valid, "weight \(value): \(error)")
            #expect(error.description.hasPrefix("point "))
        }
    }

    @Test("coordinates at the extremes: a tile, or the point named")
    func coordinates() {
        let latitudes: [Double] = [0, -0.0, .leastNonzeroMagnitude, 1e-300, 90, -90, 85.06, -85.06, 90.0.nextUp, 1e300]
        for latitude in latitudes + [-.greatestFiniteMagnitude, .infinity, -.infinity, .nan] {
            for longitude in [0, 144.9, 180, -180, 1e300, 2.9768627017671585e+34, .greatestFiniteMagnitude, .nan] {
                let layer = HeatmapTileLayer(weightedData: [
                    WeightedLatLng(coordinate: Coordinate(latitude: latitude, longitude: longitude))
                ])
                let valid = (-90...90).contains(latitude) && longitude.isFinite
                do {
                    _ = try layer.tileFor(x: 0, y: 0, zoom: 0)
                    _ = try layer.normalization(zoom: 22, scale: 3)
                    #expect(valid, "\(latitude), \(longitude)")
                } catch {
                    #expect(!valid, "\(latitude), \(longitude): \(error)")
                }
            }
        }
    }

    @Test("tile coordinates, zooms and scales anywhere in Int: a tile or a typed error")
    func tileCoordinates() {
        let layer = HeatmapTileLayer(weightedData: Fixtures.policeStations)
        for zoom in Self.integers + [22, 23] {
            for x in Self.integers + [57] {
                for scale in [Int.min, 0, 1, 3, 4, Int.max] {
                    let valid =
                        (0...22).contains(zoom) && (1...3).contains(scale) && x >= 0 && x < (1 << max(0, min(zoom, 62)))
                    do {
                        _ = try layer.intensity(x: x, y: 0, zoom: zoom, scale: scale)
                        _ = try layer.tileFor(x: x, y: 0, zoom: zoom, scale: scale)
                        #expect(valid, "\(zoom)/\(x)/0@\(scale)x")
                    } catch {
                        #expect(!valid, "\(zoom)/\(x)/0@\(scale)x: \(error)")
                        #expect(!error.description.isEmpty)
                    }
                }
            }
        }
    }
}

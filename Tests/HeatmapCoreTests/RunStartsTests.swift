import Testing

@testable import HeatmapCore

/// Run starts of fine levels, where points repeat positions: the tables list every cell's
/// first key, only levels with few cells are kept, and a gather that steps by them fills
/// the same grid as one that gallops.
@Suite struct RunStartsTests {
    /// 2,000 sample points (with zero weights, an antimeridian cluster and polar points), each
    /// made 30: a third at its exact position, the others moved by up to about a centimetre.
    static let points: [WeightedLatLng] = {
        var rng = SplitMix64(seed: 23)
        return SampleData.random(count: 2000, seed: 17).flatMap { point in
            (0..<30).map { copy in
                var moved = point
                if copy % 3 != 0 {
                    moved.coordinate.latitude = min(
                        90, max(-90, moved.coordinate.latitude + Double.random(in: -1e-7...1e-7, using: &rng)))
                    moved.coordinate.longitude += Double.random(in: -1e-7...1e-7, using: &rng)
                    moved.intensity = point.intensity == 0 ? 0 : Double.random(in: 0.5...2, using: &rng)
                }
                return moved
            }
        }
    }()
    static let index: PointIndex? = try? PointIndex(points: points)

    @Test("cell counts are the distinct cells of each level 0...32")
    func cellCounts() throws {
        let index = try #require(Self.index)
        let counts = index.keys.withUnsafeBufferPointer { RunStarts.cellCounts(of: $0) }
        for level in 0...32 {
            let distinct = Set(index.keys.map { level == 32 ? 0 : $0 >> UInt64(2 * level) }).count
            #expect(counts[level] == distinct, "level \(level)")
        }
    }

    @Test("each kept level lists the first key of every cell, within the budget; spread data keeps none")
    func tables() throws {
        let index = try #require(Self.index)
        var kept = 0
        var total = 0
        for level in RunStarts.levels {
            guard let starts = index.runStarts.starts(level: level) else { continue }
            kept += 1
            total += starts.count
            let shift = UInt64(2 * level)
            let expected = index.keys.indices.filter {
                $0 == 0 || index.keys[$0] >> shift != index.keys[$0 - 1] >> shift
            }
            #expect(starts.map(Int.init) == expected, "level \(level)")
            #expect(starts.count <= index.count / 8)
        }
        #expect(kept >= 5)
        #expect(total <= index.count / 4)
        #expect(index.runStarts.byteCount == 4 * total)
        let spread = try PointIndex(points: SampleData.random(count: 40000, seed: 11))
        #expect(spread.runStarts.byteCount == 0)
    }

    @Test("gathers stepping by run starts equal gathers that gallop: tiles, edges, antimeridian, zooms 8 to 22")
    func gathers() throws {
        let index = try #require(Self.index)
        var rng = SplitMix64(seed: 29)
        var stepped = 0
        for zoom in 8...WebMercator.maximumZoom {
            for scale in 1...2 {
                let space = try PixelSpace(zoom: zoom, scale: scale)
                if let level = space.pixelLevel, index.runStarts.starts(level: level) != nil { stepped += 1 }
                let world = space.worldSize
                let t = space.tileSize
                for _ in 0..<3 {
                    let anchor = Self.points[Int.random(in: 0..<Self.points.count, using: &rng)]
                    let (px, py) = space.pixel(of: anchor.coordinate)
                    CellSummaryTests.expectSameGather(
                        index, PixelRect(tileX: px / t, y: py / t, in: space).expanded(by: 20 * scale), space)
                    CellSummaryTests.expectSameGather(
                        index, PixelRect(x: px - 7, y: py - 3, width: 40, height: 9), space)
                }
                // Across the antimeridian, by the cluster at latitude -17.
                let y = space.pixel(ofUnit: UInt64(WebMercator.unitY(latitude: -17)))
                CellSummaryTests.expectSameGather(
                    index, PixelRect(x: world - t / 2, y: y - t / 2, width: t, height: t), space)
            }
        }
        #expect(stepped >= 8)
    }

    @Test("tiles over repeated positions match the brute-force sum at fine zooms")
    func intensities() throws {
        let index = try #require(Self.index)
        var rng = SplitMix64(seed: 31)
        for zoom in [9, 12, 15, 18, 21] {
            for scale in 1...2 {
                let space = try PixelSpace(zoom: zoom, scale: scale)
                let anchor = Self.points[Int.random(in: 0..<Self.points.count, using: &rng)]
                let (px, py) = space.pixel(of: anchor.coordinate)
                let rect = PixelRect(tileX: px / space.tileSize, y: py / space.tileSize, in: space)
                let grid = index.intensity(in: rect, space: space, kernel: GaussianKernel(radius: 20 * scale))
                let reference = ReferenceRenderer.intensity(of: Self.points, in: rect, space: space, radius: 20 * scale)
                IntensityTests.expectMatches(grid, reference, "z\(zoom) s\(scale)")
                #expect(!grid.isEmpty || anchor.intensity == 0, "z\(zoom) s\(scale)")
            }
        }
    }
}

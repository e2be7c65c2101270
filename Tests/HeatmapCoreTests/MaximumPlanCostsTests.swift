import Testing

@testable import HeatmapCore

/// The index with another source's costs.
struct Costed: CellSource {
    typealias Failure = Never
    let index: PointIndex
    let cellCosts: CellCosts
    func addWeights(of query: WeightQuery, into sink: inout PixelWeightSink) {
        index.addWeights(of: query, into: &sink)
    }
    func occupiedCells(_ query: CellQuery) -> OccupiedCells { index.occupiedCells(query) }
}

@Suite(.serialized) struct MaximumPlanCostsTests {
    @Test("debug", arguments: [9, 12, 16])
    func debug(zoom: Int) throws {
        let points = MaximumSearchStartTests.clusters(seed: 5)
        let index = try PointIndex(points: points)
        let space = try PixelSpace(zoom: zoom, scale: 1)
        let kernel = GaussianKernel(radius: 20)
        let memory = index.maximumIntensity(space: space, kernel: kernel)
        var pixels: [Int: Double] = [:]
        let world = space.worldSize
        for point in points where point.intensity > 0 {
            let (qx, qy) = space.pixel(of: point.coordinate)
            for py in max(0, qy - 20)..<min(world, qy + 21) {
                for dx in -20...20 {
                    let px = ((qx + dx) % world + world) % world
                    pixels[py * world + px, default: 0] +=
                        point.intensity * kernel.value(at: py - qy) * kernel.value(at: dx)
                }
            }
        }
        let top = pixels.max { $0.value < $1.value }!
        print("ARGMAX zoom \(zoom): \(top.key % world),\(top.key / world) = \(top.value)")
        for costs in [
            CellCosts(summarized: 18, isRemote: true), CellCosts(summarized: nil, isRemote: true),
            CellCosts(summarized: 18, isRemote: false),
        ] {
            let m = MaximumSearch.run(over: Costed(index: index, cellCosts: costs), space: space, kernel: kernel).value
            print("RESULT zoom \(zoom) \(costs): \(m) vs \(memory)")
            #expect(m == memory, "\(costs) zoom \(zoom)")
        }
    }
}

import Foundation
import HeatmapCore
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// The kernel-bounded search's levels end at 4-pixel cells, or at the summaries' where those
/// are 2 to 8 pixels,
/// `import` keeps the levels whose cells hold 2 rows or more on average, and M(z) stays
/// memory's at the zooms where the levels end at the summaries.
@Suite(.serialized) struct KernelPlanTests {
    @Test("the levels end at 4 pixels, at 2 over summaries that fine, at summaries of 8, and insert coarser ones")
    func levels() throws {
        let kernel = GaussianKernel(radius: 20)
        for zoom in [6, 9, 12, 16] {
            let space = try PixelSpace(zoom: zoom, scale: 1)
            let pixel = 24 - zoom
            let coarsest = min(24, pixel + 10)
            func plan(_ finest: Int?) throws -> [Int] {
                let plan = try #require(KernelBound(space: space, kernel: kernel, summaryFinest: finest))
                #expect(plan.taps.count == plan.levels.count)
                return plan.levels
            }
            let rows = [coarsest, pixel + 4, pixel + 2]
            for finest in [nil, coarsest, coarsest + 1, pixel + 4, pixel + 2] {
                #expect(try plan(finest) == rows, "zoom \(zoom), summaries from \(String(describing: finest))")
            }
            #expect(try plan(pixel + 3) == [coarsest, pixel + 4, pixel + 3], "zoom \(zoom)")
            for finest in [pixel, pixel + 1] {
                #expect(try plan(finest) == rows + [pixel + 1], "zoom \(zoom), summaries from \(finest)")
            }
            #expect(try plan(pixel + 5) == [coarsest, pixel + 5, pixel + 4, pixel + 2], "zoom \(zoom)")
        }
    }

    @Test(
        "import keeps the levels of 2 rows a cell or more; M(z) equals memory's where the levels end at them",
        .needsPostgres, arguments: [6, 7])
    func endingAtTheSummaries(seed: UInt64) throws {
        let cluster = try TestCluster.require()
        let points = PrunedMaximumTests.points(seed: seed)
        let table = "kernel_plan_\(seed)"
        _ = try PostgresImport.run(points: points, into: table, connection: cluster.conninfo, mode: .replace)
        let connection = try PostgresConnection(cluster.conninfo)
        let finest = try #require(
            try connection.execute("SELECT finest FROM heatmap_summaries WHERE table_name = $1", ["public.\(table)"])
                .text(0, 0).flatMap { Int($0) })
        #expect(CellSummaries.levels.contains(finest))
        // The finest level kept holds 2 rows a cell or more on average, the next finer fewer.
        func cells(_ level: Int) throws -> Int {
            let sql = "SELECT count(DISTINCT key >> \(2 * level)) FROM \(table) WHERE weight > 0"
            return try #require(try connection.execute(sql).text(0, 0).flatMap { Int($0) })
        }
        #expect(try cells(finest) <= points.count / 2)
        if finest > CellSummaries.levels.lowerBound {
            #expect(try cells(finest - 1) > points.count / 2)
        }
        let source = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table))
        let index = try PointIndex(points: points)
        // Zooms whose pixels are 2 to 3 levels finer than the summaries' finest (cells of 4 and 8
        // pixels at scale 1, 2 and 4 pixels at scale 2), and one finer still.
        var cases: [(Int, Int, Int)] = []
        for zoom in [26 - finest, 27 - finest, 28 - finest] where PostgresSource.regionZooms.contains(zoom) {
            cases += [(zoom, 1, 20), (zoom, 2, 15)]
        }
        #expect(!cases.isEmpty, "summaries from level \(finest)")
        for (zoom, scale, radius) in cases {
            let space = try PixelSpace(zoom: zoom, scale: scale)
            let kernel = GaussianKernel(radius: radius * scale)
            let memory = index.maximumIntensity(space: space, kernel: kernel)
            let value = try source.maximumIntensity(space: space, kernel: kernel, search: .kernel)
            #expect(memory > 0)
            #expect(
                abs(memory - value) <= 1e-6 * memory,
                "seed \(seed), summaries from \(finest), M(\(zoom)) scale \(scale): \(memory) in memory, \(value)")
        }
    }
}

import Testing

@testable import HeatmapCore

/// Where the dives of a source of rows start, and how the exact pass groups its rectangles.
extension MaximumSearchTests {
    @Test("a remote source's dives rank the first level where it is 24 or coarser, else up to 16x16 coarser")
    func diveStarts() throws {
        let kernel = GaussianKernel(radius: 20)
        let summaries = CellCosts(summarized: 18, isRemote: true, questionCells: 4096)
        for zoom in 3...16 {
            let plan = MaximumPlan(space: try PixelSpace(zoom: zoom, scale: 1), kernel: kernel, costs: summaries)
            guard let first = plan.stages.first?.level else { continue }
            guard first >= 18 else {
                #expect(plan.diveLevel == nil, "zoom \(zoom): the first level is read from rows")
                continue
            }
            let expected = first >= 24 ? first : min(first + 4, 24)
            #expect(plan.diveLevel == expected, "zoom \(zoom): first level \(first)")
        }
        // Zooms 6 to 8 of 1M rows (summaries down to 18): level 24 is the first, ranked whole.
        for zoom in 6...8 {
            let plan = MaximumPlan(space: try PixelSpace(zoom: zoom, scale: 1), kernel: kernel, costs: summaries)
            #expect(plan.stages.first?.level == 24 && plan.diveLevel == 24, "zoom \(zoom)")
        }
        // In memory the dives start from the first level's cells, read whole.
        let local = MaximumPlan(space: try PixelSpace(zoom: 8, scale: 1), kernel: kernel, costs: CellCosts())
        #expect(local.diveLevel == nil)
    }

    @Test("exact rectangles: neighbours split by the grid join where that reads no more, highest bound first")
    func joinedRegions() {
        func rect(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> PixelRect { PixelRect(x: x, y: y, width: w, height: h) }
        // Side by side across a 256-pixel line: one rectangle, the higher bound.
        let split = MaximumSearch.joined(
            [(rect(230, 10, 26, 40), 5), (rect(256, 12, 30, 36), 4)], side: 256, padding: 20)
        #expect(split.count == 1 && split[0].rect == rect(230, 10, 56, 40) && split[0].bound == 5)
        // Apart on a diagonal: the union would read more than the two.
        let diagonal = MaximumSearch.joined(
            [(rect(0, 0, 40, 40), 5), (rect(100, 100, 40, 40), 4)], side: 256, padding: 20)
        #expect(diagonal.map(\.rect) == [rect(0, 0, 40, 40), rect(100, 100, 40, 40)])
        // Wider than the side together: apart.
        let wide = MaximumSearch.joined([(rect(0, 0, 200, 8), 5), (rect(200, 0, 100, 8), 6)], side: 256, padding: 20)
        #expect(wide.count == 2)
        // A third joins the first it fits; the order stays highest bound first.
        let three = MaximumSearch.joined(
            [(rect(500, 500, 20, 20), 9), (rect(0, 0, 30, 30), 7), (rect(30, 0, 20, 30), 6)], side: 256, padding: 20)
        #expect(three.map(\.rect) == [rect(500, 500, 20, 20), rect(0, 0, 50, 30)])
        #expect(three.map(\.bound) == [9, 7])
    }
}

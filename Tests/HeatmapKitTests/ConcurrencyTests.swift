import Dispatch
import HeatmapKit
import Synchronization
import Testing

@Suite struct ConcurrencyTests {
    @Test("readers see the old data or the new, never a mix, while a writer swaps them")
    func swapDuringReads() throws {
        // Two data sets whose tile 2/3/2 (around Sydney) differs.
        let a = Fixtures.cluster(latitude: -33.9, longitude: 151.2, count: 60)
        let b = Fixtures.cluster(latitude: -33.5, longitude: 150.8, count: 30) + a.prefix(10)
        let reference = HeatmapTileLayer(weightedData: a)
        let tileA = try reference.tileFor(x: 3, y: 2, zoom: 2)
        reference.weightedData = b
        let tileB = try reference.tileFor(x: 3, y: 2, zoom: 2)
        try #require(tileA != tileB && tileA.png != nil && tileB.png != nil)

        let layer = HeatmapTileLayer(weightedData: a)
        let bad = Atomic<Int>(0)
        let seen = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for step in 0..<60 {
                if worker == 0 {
                    layer.weightedData = step % 2 == 0 ? b : a
                    if step % 7 == 0 { layer.clearTileCache() }
                } else {
                    let tile = try? layer.tileFor(x: 3, y: 2, zoom: 2)
                    if tile != tileA && tile != tileB { bad.add(1, ordering: .relaxed) }
                    seen.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(seen.load(ordering: .relaxed) == 180)
        #expect(bad.load(ordering: .relaxed) == 0)
    }
}

import HeatmapTiles
import Testing

/// The progress line and the summary, as printed.
@Suite struct RenderTextTests {
    @Test("the progress line: bar, done/total, percent, rate, time left")
    func progress() {
        let progress = RenderProgress()
        #expect(progress.statusLine(seconds: 0) == "[------------------------] 0/0 tiles 0%  0 tiles/s  --:-- left")
        progress.total.store(5678, ordering: .relaxed)
        progress.written.add(1000, ordering: .relaxed)
        progress.empty.add(200, ordering: .relaxed)
        progress.resumed.add(34, ordering: .relaxed)
        #expect(
            progress.statusLine(seconds: 2)
                == "[#####-------------------] 1,234/5,678 tiles 21%  617 tiles/s  0:07 left")
        progress.total.store(10_000_000, ordering: .relaxed)
        #expect(progress.statusLine(seconds: 2).hasSuffix("617 tiles/s  4:30:05 left"))
    }

    @Test("the summary: written, empty, kept, bytes, time, and what an interruption left")
    func summary() {
        var summary = RenderSummary(
            written: 22142, empty: 3, resumed: 0, bytes: 21_089_280, seconds: 5.42, interrupted: false, kept: true)
        #expect(
            summary.text(output: "heat.pmtiles")
                == "heat.pmtiles: 22,142 tiles written, 3 empty; 21.1 MB in 5.4 s (4085 tiles/s)")
        summary.resumed = 1200
        summary.interrupted = true
        summary.bytes = 45_300
        #expect(
            summary.text(output: "heat.mbtiles")
                == "heat.mbtiles: 22,142 tiles written, 3 empty, 1,200 kept from before; 45.3 kB in 5.4 s (4085 tiles/s)"
                + "\ninterrupted: heat.mbtiles is valid and holds the tiles finished; --resume continues")
        summary.kept = false
        summary.bytes = 812
        #expect(summary.text(output: "h.pmtiles").contains("812 bytes"))
        #expect(
            summary.text(output: "h.pmtiles").hasSuffix(
                "interrupted: no file was written (PMTiles is written whole at the end)"))
    }
}

import Testing

@testable import HeatmapTiles

/// PMTiles directories: varints, column order, offsets 0 for contiguous entries, lookups.
@Suite struct PMTilesDirectoryTests {
    @Test("a directory serializes column by column and parses back")
    func layout() throws {
        let entries = [
            PMTilesEntry(tileID: 0, offset: 0, length: 300, runLength: 1),
            PMTilesEntry(tileID: 5, offset: 300, length: 10, runLength: 3),
            PMTilesEntry(tileID: 9, offset: 0, length: 300, runLength: 1),
        ]
        let bytes = PMTilesDirectory.serialize(entries)
        // count 3; ids 0, +5, +4; runs 1, 3, 1; lengths 300 (0xac 0x02), 10, 300; offsets 1, 0 (contiguous), 1.
        #expect(bytes == [3, 0, 5, 4, 1, 3, 1, 0xac, 0x02, 10, 0xac, 0x02, 1, 0, 1])
        #expect(PMTilesDirectory.parse(bytes) == entries)
    }

    @Test("random directories round-trip and every id is found in its run")
    func property() throws {
        var state: UInt64 = 12345
        func random(_ bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
        for _ in 0..<50 {
            var entries: [PMTilesEntry] = []
            var id: UInt64 = random(10)
            var offset: UInt64 = 0
            for _ in 0..<Int(random(200) + 1) {
                let run = random(4) + 1
                let length = random(100_000) + 1
                entries.append(PMTilesEntry(tileID: id, offset: offset, length: length, runLength: run))
                if random(3) > 0 { offset += length } else { offset = random(1 << 40) }
                id += run + random(3)
            }
            let parsed = try #require(PMTilesDirectory.parse(PMTilesDirectory.serialize(entries)))
            #expect(parsed == entries)
            for entry in entries {
                #expect(PMTilesDirectory.find(entry.tileID + entry.runLength - 1, in: entries) == entry)
            }
            if let last = entries.last {
                #expect(PMTilesDirectory.find(last.tileID + last.runLength, in: entries) == nil)
            }
        }
    }

    @Test("truncated or hostile directories are refused, not trapped on")
    func hostile() {
        #expect(PMTilesDirectory.parse([]) == nil)
        #expect(PMTilesDirectory.parse([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]) == nil)
        #expect(PMTilesDirectory.parse([2, 0, 1, 1, 1, 5, 5]) == nil)
        #expect(PMTilesDirectory.parse([1, 0, 1, 5, 0]) == nil)  // offset 0 (contiguous) on the first entry
    }
}

/// The benchmark's command line.
struct BenchmarkOptions {
    var points = 1_000_000
    var sizes = [100_000, 1_000_000, 10_000_000]
    var zooms = [3, 6, 9, 12, 16]
    var repetitions = 5
    var seed: UInt64 = 1
    var throughputZoom = 7
    /// The `uncached` section's tiles (`Z/X/Y[@2x]`; empty for its defaults), and the zoom,
    /// scale and most tiles of its throughput pass.
    var uncachedTiles: [String] = []
    var uncachedZoom = 9
    var uncachedScale = 2
    var uncachedLimit = 600
    /// Milliseconds the `uncached` section's thread sleeps between two renders of a tile, as a
    /// server's render thread waits for its next request (0: back to back).
    var uncachedPauseMs = 0
    var jsonPath: String?
    var exportPath: String?
    /// Where the `bytes` section writes each tile's RGBA and palette PNG (for bench/pillow_sizes.py).
    var tileImagesPath: String?
    /// Entries of the `bytes` section's palette map (`nil`: the server's, `Gradient.paletteColorMapSize`).
    var bytesColorMapSize: Int?
    /// A PostgreSQL database for the `postgres` section (which is skipped without one).
    var postgresURL: String?
    /// Zooms of the `postgres` section's M(z) from the database.
    var postgresNormalizationZooms = [3, 6]
    /// Rows of the table `heatmap serve --postgres` is measured over (0: not measured).
    var postgresServeRows = 0
    /// Whether the `postgres` section keeps the tables an earlier run left with the same points.
    var postgresReuse = false
    /// Rows of the table the `postgres-maximum` section finds M(z) over (0: not measured).
    var postgresMaximumRows = 0
    /// Rows of the table the `postgres-where` section draws with and without a function for `--where`.
    var postgresWhereRows = 1_000_000
    /// Rows of the table the `postgres-filters` section draws filtered and unfiltered.
    var postgresFiltersRows = 1_000_000
    /// The shards of the `postgres-sharded` section (`--shard URL`, repeated).
    var shardURLs: [String] = []
    /// The parts of the report to measure; all of them by default.
    var sections: Set<String> = BenchmarkOptions.allSections

    /// Every part of the report, in the order they run.
    static let allSections: Set<String> = [
        "readers", "index", "tiles", "bytes", "scaling", "stacked", "normalization", "throughput", "encoders", "render",
        "percentile", "postgres", "postgres-sharded", "postgres-render", "mean", "live", "live-serve", "uncached",
        "postgres-maximum", "postgres-where", "filters", "postgres-filters",
    ]

    init() {}

    init(arguments: [String]) throws(OptionError) {
        var i = 0
        func value() throws(OptionError) -> String {
            guard i + 1 < arguments.count else { throw OptionError("\(arguments[i]) needs a value") }
            i += 1
            return arguments[i]
        }
        func list(_ text: String) throws(OptionError) -> [Int] {
            let numbers = text.split(separator: ",").compactMap { Int($0) }
            guard !numbers.isEmpty, numbers.count == text.split(separator: ",").count else {
                throw OptionError("expected whole numbers separated by commas, got \"\(text)\"")
            }
            return numbers
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--points": points = try list(try value())[0]
            case "--sizes": sizes = try list(try value())
            case "--zooms": zooms = try list(try value())
            case "--repetitions": repetitions = max(1, try list(try value())[0])
            case "--seed": seed = UInt64(max(0, try list(try value())[0]))
            case "--json": jsonPath = try value()
            case "--export": exportPath = try value()
            case "--tile-images": tileImagesPath = try value()
            case "--color-map-size":
                let size = try list(try value())[0]
                guard (2...256).contains(size) else { throw OptionError("--color-map-size takes 2...256, got \(size)") }
                bytesColorMapSize = size
            case "--postgres": postgresURL = try value()
            case "--postgres-zooms": postgresNormalizationZooms = try list(try value())
            case "--postgres-serve-rows": postgresServeRows = max(0, try list(try value())[0])
            case "--postgres-maximum-rows": postgresMaximumRows = max(0, try list(try value())[0])
            case "--postgres-where-rows": postgresWhereRows = max(1, try list(try value())[0])
            case "--postgres-filters-rows": postgresFiltersRows = max(1, try list(try value())[0])
            case "--shard": shardURLs.append(try value())
            case "--postgres-reuse": postgresReuse = true
            case "--uncached-tiles":
                uncachedTiles = try value().split(separator: ",").map(String.init)
                for tile in uncachedTiles { _ = try UncachedBenchmark.parse(tile) }
            case "--uncached-zoom": uncachedZoom = try list(try value())[0]
            case "--uncached-scale": uncachedScale = try list(try value())[0]
            case "--uncached-limit": uncachedLimit = max(1, try list(try value())[0])
            case "--uncached-pause-ms": uncachedPauseMs = min(1000, max(0, try list(try value())[0]))
            case "--only":
                let names = Set(try value().split(separator: ",").map(String.init))
                guard names.isSubset(of: Self.allSections) else {
                    throw OptionError(
                        "--only takes \(Self.allSections.sorted().joined(separator: ",")), got \(names.sorted())")
                }
                sections = names
            case "--quick":
                sizes = [100_000, 1_000_000]
                repetitions = 3
            default: throw OptionError("unknown option \(arguments[i])")
            }
            i += 1
        }
        // At most a billion points, so that no count of bytes or points derived from them overflows.
        let allowed = 1...1_000_000_000
        guard allowed.contains(points), sizes.allSatisfy(allowed.contains), zooms.allSatisfy((0...22).contains) else {
            throw OptionError("sizes must be in 1...1000000000 and zooms in 0...22")
        }
        guard (0...22).contains(uncachedZoom), (1...3).contains(uncachedScale) else {
            throw OptionError("--uncached-zoom must be in 0...22 and --uncached-scale in 1...3")
        }
    }
}

/// A mistake on the benchmark's command line.
struct OptionError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

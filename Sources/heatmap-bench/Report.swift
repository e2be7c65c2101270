/// Index build at one size.
struct IndexMeasurement: Codable {
    var points: Int
    var seconds: Double
    var pointsPerSecond: Double
    var indexBytesPerPoint: Double
    var peakBytesPerPoint: Double
}

/// A tile's gather + convolve time at every data size, and the ratio of the largest to the smallest.
struct ScalingMeasurement: Codable {
    var tile: String
    var kind: String
    var milliseconds: [String: Double]
    /// Of `milliseconds`, the time spent gathering pixel weights from the index.
    var gatherMilliseconds: [String: Double] = [:]
    /// The pixels of the padded tile that hold weight, at each size: the work of the tile.
    var occupiedPixels: [String: Int] = [:]
    var ratioLargestToSmallest: Double
}

/// M(z) at one size and zoom.
struct NormalizationMeasurement: Codable {
    var points: Int
    var zoom: Int
    var scale: Int
    var milliseconds: Double
    var value: Double
    /// The CPU time of the search, all threads'.
    var cpuMilliseconds: Double
}

/// Whole tiles (intensity, colour, PNG) of a full zoom level through HeatmapTileLayer.
struct ThroughputMeasurement: Codable {
    var zoom: Int
    var tiles: Int
    var threads: Int
    var seconds: Double
    var tilesPerSecond: Double
    var singleThreadTilesPerSecond: Double
}

/// One PNG encoder setting on one tile.
struct EncoderMeasurement: Codable {
    var setting: String
    var tile: String
    var bytes: Int
    var milliseconds: Double
}

/// Everything the benchmark measured.
struct Report: Codable {
    var machine: Machine
    var seed: UInt64
    var radius: Int
    var repetitions: Int
    var index: [IndexMeasurement] = []
    var tiles: [TileMeasurement] = []
    var scaling: [ScalingMeasurement] = []
    var stacked: [StackedMeasurement] = []
    var normalization: [NormalizationMeasurement] = []
    var throughput: [ThroughputMeasurement] = []
    var encoders: [EncoderMeasurement] = []
    /// Every tile of the table in every format (BytesBenchmark.swift).
    var bytes: [BytesMeasurement] = []
    var readers: [ReaderMeasurement] = []
    var readerShapes: [ReaderShapeMeasurement] = []
    var render: [RenderMeasurement] = []
    var postgres: PostgresMeasurement?
    var mean: [MeanMeasurement] = []
    /// Time windows and categories (FilterBenchmark.swift).
    var filters: FilterReport?
    var percentile: [PercentileMeasurement] = []
    var live: LiveMeasurement?
    var liveServe: LiveServeMeasurement?
    var postgresSharded: ShardedMeasurement?
    var postgresRender: [PostgresRenderMeasurement] = []
    var postgresMaximum: [PostgresMaximumMeasurement] = []
    var postgresWhere: [PostgresWhereMeasurement] = []
    var postgresFilters: PostgresFilterReport?
    var uncached: UncachedMeasurement?
}

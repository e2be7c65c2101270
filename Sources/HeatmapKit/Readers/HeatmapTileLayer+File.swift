import HeatmapCore

extension HeatmapTileLayer {
    /// A layer over the points of a file read by ``PointFileReader/read(path:options:)``: its
    /// index (built once, by the reader), and its values for ``Aggregate/mean`` when it was read
    /// with ``PointReadOptions/valueColumn``.
    ///
    /// ```swift
    /// let file = try PointFileReader.read(path: "police_stations.json")
    /// let layer = HeatmapTileLayer(file: file)
    /// ```
    ///
    /// - Parameters:
    ///   - file: what ``PointFileReader`` read.
    ///   - settings: every setting at once (default Google's).
    ///   - cacheBytes: the most memory the cache of encoded tiles may use; default 64 MiB.
    public convenience init(file: PointFile, settings: HeatmapSettings = .default, cacheBytes: Int = 64 << 20) {
        if let values = file.values {
            self.init(values: values, settings: settings, cacheBytes: cacheBytes)
        } else {
            self.init(index: file.index, settings: settings, cacheBytes: cacheBytes)
        }
    }
}

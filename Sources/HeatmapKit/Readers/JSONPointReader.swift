/// Reads points as a list, keeping their exact coordinates and file order; for drawing,
/// prefer ``PointFileReader``, which builds the index directly in a fraction of the memory.
///
/// ```swift
/// let points = try JSONPointReader.read(contentsOf: "police_stations.json")
/// ```
package enum JSONPointReader {
    /// Reads the points of a file in any format ``PointFileReader`` reads (JSON by default,
    /// as in Google's example: `[{"lat": -37.1886, "lng": 145.708, "weight": 2}]`).
    ///
    /// - Throws: ``PointFileError`` naming the file, line and column, and what was expected.
    public static func read(contentsOf path: String, options: PointReadOptions = .init()) throws(PointFileError)
        -> [WeightedLatLng]
    {
        let input = try ByteInput(path: path)
        var collector = PointCollector(path: path, skipInvalid: options.skipInvalid)
        collector.points = []
        _ = try PointFileReader.read(input: input, options: options, collector: &collector)
        return collector.points ?? []
    }
}

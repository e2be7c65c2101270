import HeatmapCore
import HeatmapKit
@_spi(Benchmark) import HeatmapPostgres

/// Whether PostGIS's statements gave HeatmapKit's rows for one tile: the same occupied pixels
/// with the same weights (see ``PostgresRowCheck``).
struct PostgresRowComparison: Codable {
    /// The occupied pixels of the tile's padded rectangle each side's rows give.
    var heatmapKitPixels: Int
    var postgisPixels: Int
    /// Pixels one side has and the other has not.
    var onlyHeatmapKit: Int
    var onlyPostGIS: Int
    /// The largest difference of a shared pixel's weight, relative to the larger of the two.
    var largestRelativeDifference: Double
    /// PostGIS's rows outside the queries' rectangles (a point on the envelope's far edge snaps
    /// to the next pixel), which its source drops as the tile does.
    var postgisRowsOutside: Int
    /// The largest relative difference allowed: the sums' order differs (float8 on both sides).
    var tolerance: Double
    /// Up to 5 pixels that differ, as `column,row: HeatmapKit weight / PostGIS weight`.
    var examples: [String]
    var same: Bool
}

/// Runs each side's statements of a tile once, untimed, and compares their rows: HeatmapKit's
/// (the pinned tile's statement, its change-count row left out, a pixel's parts summed) against
/// PostGIS's (``PostGISGridSource``'s `GROUP BY` of snapped points, positions made world pixels).
/// A tile whose rows differ gets no PostGIS time in the report, only this.
enum PostgresRowCheck {
    static let tolerance = 1e-9

    static func compare(
        source: PostgresSource, gis: PostGISGridSource, rect: PixelRect, space: PixelSpace, kernel: GaussianKernel,
        on connection: PostgresConnection
    ) throws -> PostgresRowComparison {
        let recorder = QueryRecorder()
        _ = recorder.intensity(in: rect, space: space, kernel: kernel)
        var ours: [SIMD2<Int64>: Double] = [:]
        var theirs: [SIMD2<Int64>: Double] = [:]
        var outside = 0
        for query in recorder.queries.withLock({ $0 }) {
            let (sql, parameters) = try source.tileStatement(for: query)
            let result = try connection.executeAsPrepared(sql, parameters, binary: true)
            for row in 0..<result.rowCount {
                // The change count's row has no position.
                guard let (column, line, weight) = result.cell(row) else { continue }
                ours[SIMD2(column, line), default: 0] += weight
            }
            let (gisSQL, gisParameters) = gis.statement(for: query)
            let gisResult = try connection.executeAsPrepared(gisSQL, gisParameters, binary: true)
            for row in 0..<gisResult.rowCount {
                guard let (column, line, weight) = gisResult.cell(row) else { continue }
                let pixel = SIMD2(Int64(query.columns.lowerBound) + column, Int64(query.rows.lowerBound) + line)
                guard query.columns.contains(Int(pixel.x)), query.rows.contains(Int(pixel.y)) else {
                    outside += 1
                    continue
                }
                theirs[pixel, default: 0] += weight
            }
        }
        var largest = 0.0
        var examples: [String] = []
        for (pixel, weight) in ours {
            guard let other = theirs[pixel] else {
                if examples.count < 5 { examples.append("\(pixel.x),\(pixel.y): \(weight) / none") }
                continue
            }
            let difference = abs(weight - other) / max(abs(weight), abs(other), .leastNormalMagnitude)
            largest = max(largest, difference)
            if difference > tolerance, examples.count < 5 {
                examples.append("\(pixel.x),\(pixel.y): \(weight) / \(other)")
            }
        }
        for (pixel, weight) in theirs where ours[pixel] == nil && examples.count < 5 {
            examples.append("\(pixel.x),\(pixel.y): none / \(weight)")
        }
        let onlyOurs = ours.keys.filter { theirs[$0] == nil }.count
        let onlyTheirs = theirs.keys.filter { ours[$0] == nil }.count
        return PostgresRowComparison(
            heatmapKitPixels: ours.count, postgisPixels: theirs.count, onlyHeatmapKit: onlyOurs,
            onlyPostGIS: onlyTheirs, largestRelativeDifference: largest, postgisRowsOutside: outside,
            tolerance: tolerance, examples: examples,
            same: onlyOurs == 0 && onlyTheirs == 0 && largest <= tolerance)
    }
}

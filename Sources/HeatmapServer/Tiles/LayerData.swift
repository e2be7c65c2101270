import Foundation
import HeatmapCore
import HeatmapKit

/// One loaded data set: its index and where its points lie.
package struct LayerData: Sendable {
    /// The points, indexed.
    package var index: PointIndex
    /// The points' extent (west > east when it crosses the antimeridian); `nil` without points.
    package var bounds: PointBounds?
    /// How many rows were skipped and where, when read with `skipInvalid`; `nil` when none were.
    package var skipSummary: String?
    /// The reader's note on CSV rows with more fields than the header, to print once; `nil`
    /// when none has.
    package var longRowSummary: String?
    /// A source of weights drawn instead of `index` (a database table, say), or `nil`.
    package var source: (any WeightSource)?
    /// The points (rows) the source holds, when it is not the index.
    package var sourceCount = 0
    /// The points with their values, when read with a value column (for the mean); `nil` otherwise.
    package var values: ValueIndex? = nil
    /// With ``source``: the mean's numerator Σ wᵢ·(vᵢ − LO) per pixel and LO...HI (see
    /// ``HeatmapTileLayer/init(source:shiftedValues:values:settings:cacheBytes:)``); `nil` for none.
    package var sourceValues: SourceMeanChannel? = nil

    /// The points with their times and categories, when read with them (or a database table
    /// that filters): the source of filtered tiles; `nil` for data that cannot be filtered.
    package var filters: (any FilterSource)? = nil
    /// The time and category columns the data were read with, which points added live must
    /// carry too (`POST /{layer}/points`); `nil` for data read without.
    package var liveColumns: PointReadOptions? = nil

    /// The points of a layer changed while serving (`POST`/`DELETE /{layer}/points`), when they
    /// are not `index`'s.
    package var liveCount: Int?

    /// The number of points drawn.
    package var count: Int { liveCount ?? (source == nil ? index.count : sourceCount) }

    /// Data drawn from another source of weights, with its number of points and extent.
    package init(source: any WeightSource, count: Int, bounds: PointBounds?) {
        var empty = PointIndex.Builder()
        index = empty.build()
        self.source = source
        sourceCount = count
        self.bounds = bounds
    }

    /// Data from an index and its extent.
    package init(index: PointIndex, bounds: PointBounds?) {
        self.index = index
        self.bounds = bounds
    }

    /// Data from points, with the box of their latitudes and longitudes as extent.
    ///
    /// - Throws: ``HeatmapError`` for the first invalid point.
    package init(points: [WeightedLatLng]) throws(HeatmapError) {
        index = try PointIndex(points: points)
        bounds = points.first.map { first in
            var b = PointBounds(
                south: first.coordinate.latitude, west: first.coordinate.longitude, north: first.coordinate.latitude,
                east: first.coordinate.longitude)
            for point in points.dropFirst() {
                let c = point.coordinate
                b.south = min(b.south, c.latitude)
                b.north = max(b.north, c.latitude)
                b.west = min(b.west, c.longitude)
                b.east = max(b.east, c.longitude)
            }
            return b
        }
    }

    /// Reads a data file as `heatmap serve` does, at start and on reload: any format the points
    /// reader knows (JSON, CSV, TSV, GeoJSON, NDJSON, gzip), with its extent for TileJSON.
    ///
    /// - Throws: ``LayerLoadError`` with the reader's message (file, line, what).
    ///
    /// - Parameter options: the format, columns and `skipInvalid` (default: detected, none skipped).
    package static func load(path: String, options: PointReadOptions = .init()) throws(LayerLoadError) -> LayerData {
        do {
            let file = try PointFileReader.read(path: path, options: options)
            var data = LayerData(index: file.index, bounds: file.report.bounds)
            data.skipSummary = file.report.skipSummary
            data.longRowSummary = file.report.longRowSummary
            data.values = file.values
            if let filters = file.filters {
                data.filters = LiveFilterIndex(base: filters)
                var columns = PointReadOptions()
                columns.timeColumn = options.timeColumn
                columns.categoryColumns = options.categoryColumns
                data.liveColumns = columns
            }
            return data
        } catch {
            throw LayerLoadError(error.description)
        }
    }
}

extension PointBounds {
    /// The centre, and the zoom at which the extent about fills a 1024-pixel-wide map, for
    /// TileJSON's `center`. An extent with `west > east` crosses the antimeridian.
    /// Any finite bounds work, unwrapped longitudes too (`LayerData(points:)` keeps them as
    /// given): an extent of 360° or more is the whole world, and the zoom is clamped before it
    /// becomes an integer.
    package var center: (longitude: Double, latitude: Double, zoom: Int) {
        let width = min(360, west <= east ? east - west : east + 360 - west)
        let span = max(width, (north - south) * 1.5, 1e-6)
        let zoom = min(max(log2(360 / span * 4).rounded(.down), 0), 16)
        var longitude = width >= 360 ? 0 : (west + width / 2).truncatingRemainder(dividingBy: 360)
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return (longitude, (south + north) / 2, zoom.isNaN ? 0 : Int(zoom))
    }
}

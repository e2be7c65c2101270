import Foundation
import HeatmapKit
import HeatmapPostgres
import HeatmapServer

/// `heatmap info DATA [options]`: what a points file holds, and M(z) for chosen zooms.
struct InfoCommand {
    static let usage = """
        usage: heatmap info DATA [--zoom Z,Z,...] [--radius N | --radius-meters M [--radius-latitude LAT]]
                            [--scale S] [--max-percentile P] [--json]
                            [--datetime START/END] [--category COL:V1,V2]... [--scale-of filter|all]
                            [--data-format F] [--lat COL] [--lng COL] [--weight COL] [--skip-invalid]
               heatmap info --postgres URL --table T [--where SQL] [the same options]
          DATA               points: JSON, CSV, TSV, GeoJSON or NDJSON, gzip too; - for standard input
          --zoom Z,Z,...     zoom levels to print the normalisation value M(z) for
          --radius N         kernel radius in points for M(z) and the suggested zooms, 10...50 (default 20)
          --radius-meters M  a radius in ground metres instead, as tile and serve convert it per zoom
                             (at --radius-latitude, default the middle of the data's latitudes):
                             M(z), the reach in pixels and the suggested zooms for it
          --scale S          1, 2 or 3 for M(z) (default 1)
          --max-percentile P also the P-th percentile of each zoom's non-zero pixels (0 < P <= 100),
                             with the zoom it was ranked at (not with --postgres)
          --json             print the report as JSON
          --datetime, --category, --scale-of
                             M(z) of the points these filters keep (with --time, --categories)
        \(DataArguments.help)
        \(PostgresArguments.help)
        Prints the points read and skipped, the bounds, weight statistics and the suggested zooms.
        """

    var dataPath: String
    var options: PointReadOptions
    var zooms: [Int]
    var radius: Int
    var scale: Int
    var json: Bool
    /// `--max-percentile P`: the percentile to report beside M(z).
    var percentile: Double?
    /// `--radius-meters M`, `--radius-latitude LAT`: a radius in metres (see InfoCommand+Meters.swift).
    var radiusMeters: Double?
    var radiusLatitude: Double?
    var postgres: (ConnectionString, PostgresTable)?
    /// `--datetime`, `--category`, `--scale-of`: M(z) of the points kept, or `nil`.
    var filters: SettingOverrides?
    /// The filters' request, or `nil`.
    var filter: LayerFilterRequest? { filters?.filter }

    init(_ arguments: [String]) throws(CommandError) {
        let list = try ArgumentList(
            arguments,
            valued: DataArguments.valued.union(PostgresArguments.valued).union([
                "zoom", "radius", "scale", "max-percentile", "radius-meters", "radius-latitude", "datetime", "category",
                "scale-of",
            ]),
            flags: DataArguments.flags.union(["json"]))
        postgres = try PostgresArguments.table(list)
        guard list.positionals.count == (postgres == nil ? 1 : 0) else {
            let what = postgres == nil ? "DATA" : "no DATA with --postgres"
            throw .usage("info needs \(what), got \(list.positionals.count) arguments\n\(Self.usage)")
        }
        dataPath = list.positionals.first ?? ""
        options = try DataArguments.options(list)
        // The settings' options read as every command and query parameter reads them.
        let given = try SettingArguments.overrides(list).applied(to: .default)
        radius = given.radius
        scale = try list.integer("scale") ?? 1
        guard (1...3).contains(scale) else { throw .usage("--scale is 1, 2 or 3, got \(scale)") }
        zooms = []
        for part in (list.text("zoom") ?? "").split(separator: ",") {
            guard let zoom = Int(part.trimmingCharacters(in: .whitespaces)), (0...22).contains(zoom) else {
                throw .usage("--zoom expects zoom levels in 0...22 separated by commas, got \"\(part)\"")
            }
            zooms.append(zoom)
        }
        json = list.flag("json")
        (radiusMeters, radiusLatitude) = try Self.meters(list, given: given)
        percentile = given.maximumPercentile
        filters = try FilterArguments.given(list, options: options, settings: given)
        if filter != nil, percentile != nil {
            throw .usage("--max-percentile is of every point; it does not take --datetime or --category yet")
        }
    }

    /// The report as printed with `--json`.
    struct Output: Codable {
        struct Normalization: Codable {
            var zoom: Int
            var value: Double
            /// The kernel's reach in pixels at this zoom and scale (the radius × scale, or from metres).
            var reach: Int? = nil
        }
        var path: String
        var format: String
        var pointsRead: Int
        var skippedCount: Int
        var skippedLines: [Int]
        var clampedLatitudeCount: Int
        var zeroWeightCount: Int
        var bounds: PointBounds?
        var weights: WeightStatistics?
        var suggestedMinimumZoom: Int
        var suggestedMaximumZoom: Int
        var radius: Int
        var scale: Int
        var normalization: [Normalization]
        /// With `--max-percentile`: each zoom's percentile (see InfoCommand+Percentile.swift).
        var percentiles: [PercentileValue]? = nil
        /// With `--radius-meters`: the metres and the latitude they were measured at.
        var radiusMeters: Double? = nil
        var radiusLatitude: Double? = nil
        /// CSV rows with more fields than the header (their extra fields not read), when any.
        var longRowCount: Int? = nil
        var firstLongRowLine: Int? = nil
        var headerFieldCount: Int? = nil
        /// With `--time COL`: the first and last time, in UTC.
        var timeRange: TimeRangeOutput? = nil
        /// With `--categories COL,...`: each column's values with their counts.
        var categories: [CategoryOutput]? = nil
        /// With `--datetime` or `--category`: the filters, as a query writes them, whose points'
        /// M(z) `normalization` lists (every point's with `scale-of=all`).
        var filter: String? = nil
    }

    func run() throws(CommandError) {
        if let (connection, table) = postgres { return try runPostgres(connection, table) }
        let file = try DataArguments.read(dataPath, options: options)
        let report = file.report
        var layer = HeatmapTileLayer(index: file.index, settings: settings)
        if let filters, let filter {
            // The one heatmap with filters that serve, render, tile and image draw, checked.
            let served = try FilterArguments.heatmap(file, name: "info", settings: settings, filters: filters)
            // No point kept: M(z) is 0 at every zoom. With scale-of=all: every point's.
            if filter.scale == .filter {
                layer = try FilterArguments.kept(served) ?? HeatmapTileLayer(settings: settings)
            }
        }
        let values = try normalizations(layer)
        let zoomRange = try suggestedZooms(report, latitude: Self.middle(file.index))
        let output = Output(
            path: report.path, format: report.format.rawValue, pointsRead: report.pointsRead,
            skippedCount: report.skippedCount, skippedLines: report.skippedLines,
            clampedLatitudeCount: report.clampedLatitudeCount, zeroWeightCount: report.zeroWeightCount,
            bounds: report.bounds, weights: report.weights, suggestedMinimumZoom: zoomRange.lowerBound,
            suggestedMaximumZoom: zoomRange.upperBound, radius: radius, scale: scale, normalization: values,
            percentiles: try percentiles(file.index), radiusMeters: radiusMeters,
            radiusLatitude: radiusMeters.map { _ in radiusLatitude ?? Self.middle(file.index) },
            longRowCount: report.longRowCount > 0 ? report.longRowCount : nil,
            firstLongRowLine: report.firstLongRowLine,
            headerFieldCount: report.headerFieldCount, timeRange: report.timeRange.map(TimeRangeOutput.init),
            categories: report.categories.isEmpty ? nil : report.categories.map(CategoryOutput.init),
            filter: filter.map(\.query))
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(output) else { throw CommandError("cannot encode the report") }
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(Self.text(output), terminator: "")
        }
    }

    static func text(_ output: Output) -> String {
        var text =
            "\(output.path == "-" ? "<stdin>" : output.path) (\(output.format)): \(output.pointsRead) points read"
        text += ", \(output.skippedCount) skipped"
        if !output.skippedLines.isEmpty {
            let more = output.skippedCount > output.skippedLines.count ? ", …" : ""
            text += " (lines \(output.skippedLines.map(String.init).joined(separator: ", "))\(more))"
        }
        text += "\n"
        if let b = output.bounds {
            let crossing = b.west > b.east ? " (crossing the antimeridian)" : ""
            text += "bounds: south \(b.south), west \(b.west), north \(b.north), east \(b.east)\(crossing)\n"
        }
        if let w = output.weights {
            text += "weights: min \(w.minimum), max \(w.maximum), sum \(w.sum), mean \(w.mean)\n"
        }
        text += "zero weights: \(output.zeroWeightCount) (kept, drawing nothing)\n"
        text += "beyond ±85.05112878° latitude: \(output.clampedLatitudeCount) (kept, drawn at the limit)\n"
        text += "suggested zooms: \(output.suggestedMinimumZoom)...\(output.suggestedMaximumZoom)"
        text += " (\(radiusText(output)))\n"
        for value in output.normalization {
            text +=
                "M(\(value.zoom)) = \(value.value) (\(radiusText(output, reach: value.reach)), scale \(output.scale))\n"
        }
        if let filter = output.filter { text += "filter: \(filter) (M(z) of the points it keeps)\n" }
        text += filterText(output)
        for p in output.percentiles ?? [] {
            text += "P\(LegendLabel.text(p.percentile))(\(p.zoom)) = \(p.value) (\(p.pixels) non-zero pixels"
            text += p.rankedZoom == p.zoom ? ")\n" : " at zoom \(p.rankedZoom), beyond the pixel limit at \(p.zoom))\n"
        }
        return text
    }
}

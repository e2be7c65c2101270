import Foundation
import HeatmapKit
import HeatmapPostgres
import HeatmapServer

extension InfoCommand {
    /// The report on a table, as printed with `--json`.
    struct TableOutput: Codable {
        var table: String
        var imported: Bool
        var summary: PostgresTableSummary
        var suggestedMinimumZoom: Int
        var suggestedMaximumZoom: Int
        var radius: Int
        var scale: Int
        var normalization: [Output.Normalization]
        /// With `--radius-meters`: the metres and the latitude they were measured at.
        var radiusMeters: Double? = nil
        var radiusLatitude: Double? = nil
        /// With `--value COL`: the column and the smallest and largest value of the rows drawn.
        var value: String? = nil
        var values: [Double]? = nil
        /// For a table `import` made: the triggers missing for live updates (empty when all are there).
        var missingTriggers: [String]? = nil
        /// With `--time COL`: the first and last time of the rows.
        var timeRange: TimeRangeOutput? = nil
        /// With `--categories COL,...`: each column's values with their counts.
        var categories: [CategoryOutput]? = nil
        /// With `--datetime` or `--category`: the filters, as a query writes them, whose rows'
        /// M(z) is given.
        var filter: String? = nil
    }

    /// `info --postgres`: the table's rows, extent and weights from one aggregate, the
    /// suggested zooms (bounds and a sample of 1000 rows, see ``PostgresSource/extent()``), and M(z).
    func runPostgres(_ connection: ConnectionString, _ table: PostgresTable) throws(CommandError) {
        if radiusMeters != nil, radiusLatitude == nil {
            throw .usage("--radius-meters with --postgres needs --radius-latitude LAT: a table has no centre at hand")
        }
        let source = try PostgresArguments.source(connection, table)
        var layer = HeatmapTileLayer(source: source, settings: settings)
        let filters = try PostgresArguments.filters(source)
        if let given = self.filters, let filter {
            // The one heatmap with filters, over the facets read once (the report lists them).
            var data = LayerData(source: source, count: 0, bounds: nil)
            data.filters = filters
            let served = try FilterArguments.heatmap(name: "info", settings: settings, filters: given, data: data)
            // No row kept: M(z) is 0 at every zoom. With scale-of=all: every row's.
            if filter.scale == .filter {
                layer = try FilterArguments.kept(served) ?? HeatmapTileLayer(settings: settings)
            }
        }
        let summary: PostgresTableSummary
        let zoomRange: ClosedRange<Int>
        var values: [Output.Normalization] = []
        var missing: [String]?
        let facets = filters?.facets
        do {
            summary = try source.summary()
            missing = source.isImported ? try source.missingTriggers() : nil
            zoomRange = try suggestedZooms(
                points: source.extent().suggestedZoomRange(radius: radius), latitude: radiusLatitude ?? 0)
            values = try normalizations(layer)
        } catch let error as CommandError {
            throw error
        } catch let error as PostgresError {
            throw CommandError(error.description)
        } catch {
            throw CommandError("\(error)")
        }
        let range = try options.valueColumn.map { column throws(CommandError) in
            try PostgresArguments.meanChannels(source, valueColumn: column).values
        }
        var output = TableOutput(
            table: table.name, imported: source.isImported, summary: summary,
            suggestedMinimumZoom: zoomRange.lowerBound, suggestedMaximumZoom: zoomRange.upperBound, radius: radius,
            scale: scale,
            normalization: values, radiusMeters: radiusMeters,
            radiusLatitude: radiusLatitude)
        (output.value, output.values) = (options.valueColumn, range.map { [$0.lowerBound, $0.upperBound] })
        output.missingTriggers = missing
        output.filter = filter.map(\.query)
        output.timeRange = facets?.timeRange.map(TimeRangeOutput.init)
        output.categories = facets.flatMap { $0.dictionaries.isEmpty ? nil : $0.dictionaries.map(CategoryOutput.init) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(output) else { throw CommandError("cannot encode the report") }
            print(String(decoding: data, as: UTF8.self))
            return
        }
        let s = output.summary
        var text = "\(table.name) (PostgreSQL\(source.isImported ? ", imported" : "")): \(s.rows) rows drawn"
        text += ", \(s.unusable) left out (NULL or unusable position or weight)\n"
        if let g = s.geometry, let column = table.geometryColumn {
            text += "geometry \(column): \(g.null) NULL, \(g.otherSRID) not in EPSG:4326, \(g.notPoint) not points, "
            text += "\(g.empty) empty, \(g.outOfRange) out of range (left out, drawing nothing)\n"
        }
        if let b = s.bounds {
            let crossing = b.west > b.east ? " (crossing the antimeridian)" : ""
            text += "bounds: south \(b.south), west \(b.west), north \(b.north), east \(b.east)\(crossing)\n"
        }
        if let minimum = s.minimumWeight, let maximum = s.maximumWeight, let sum = s.totalWeight, s.rows > 0 {
            text += "weights: min \(minimum), max \(maximum), sum \(sum), mean \(sum / Double(s.rows))\n"
        }
        text += "zero weights: \(s.zeroWeights) (kept, drawing nothing)\n"
        if let missing {
            text +=
                missing.isEmpty
                ? "live updates: the triggers import makes are all there\n"
                : "live updates: missing triggers: \(missing.joined(separator: ", ")); a running serve does not see "
                    + "every change: a heatmap import --append into it puts them back\n"
        }
        if let filter = output.filter { text += "filter: \(filter) (M(z) of the rows it keeps)\n" }
        text += Self.filterText(timeRange: output.timeRange, categories: output.categories)
        text += "suggested zooms: \(output.suggestedMinimumZoom)...\(output.suggestedMaximumZoom)"
        text += " (\(Self.radiusText(radius: radius, meters: radiusMeters, latitude: radiusLatitude)))\n"
        if let column = output.value, let range {
            text += "values of \(column): min \(range.lowerBound), max \(range.upperBound) (the mean's ramp)\n"
        }
        for value in output.normalization {
            text +=
                "M(\(value.zoom)) = \(value.value) (\(Self.radiusText(radius: radius, meters: radiusMeters, latitude: radiusLatitude, reach: value.reach)), scale \(scale))\n"
        }
        print(text, terminator: "")
    }
}

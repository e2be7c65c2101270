import Foundation
import HeatmapKit

/// The data options every command shares: `--data-format`, `--lat`, `--lng`, `--weight`,
/// `--skip-invalid`, and reading the data with them.
enum DataArguments {
    static let valued: Set<String> = ["data-format", "lat", "lng", "weight", "value", "time", "categories"]
    static let flags: Set<String> = ["skip-invalid"]
    static let help = """
          --data-format F    json, csv, tsv, geojson or ndjson (default: from the extension and content)
          --lat COL          the latitude's column or field (default: lat, latitude or y)
          --lng COL          the longitude's column or field (default: lng, lon, long, longitude or x)
          --weight COL       the weight's column, field or GeoJSON property (default: weight, intensity,
                             value or count; without one every point weighs 1)
          --value COL        each point's value, for --aggregate mean (a number in every row)
          --time COL         each point's time: Unix seconds, a date or an ISO 8601 date-time (UTC
                             unless it has an offset), one kind in the column
          --categories COL[,COL...]
                             each point's categories (text, numbers or booleans), for filters
          --skip-invalid     skip invalid rows, reporting how many and their first lines on standard error
        """

    static func options(_ list: ArgumentList) throws(CommandError) -> PointReadOptions {
        var options = PointReadOptions(
            latitudeColumn: list.text("lat"), longitudeColumn: list.text("lng"), weightColumn: list.text("weight"),
            skipInvalid: list.flag("skip-invalid"))
        options.valueColumn = list.text("value")
        options.timeColumn = list.text("time")
        if let names = list.text("categories") {
            options.categoryColumns = names.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard !options.categoryColumns.contains(""),
                Set(options.categoryColumns).count == options.categoryColumns.count
            else {
                throw .usage("--categories is a list of distinct column names separated by commas, got \"\(names)\"")
            }
        }
        if let name = list.text("data-format") {
            guard let format = PointFormat(rawValue: name.lowercased()) else {
                let names = PointFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw .usage("--data-format is one of \(names), got \"\(name)\"")
            }
            options.format = format
        }
        return options
    }

    /// Reads the data, printing the skipped rows' summary on standard error.
    static func read(_ path: String, options: PointReadOptions) throws(CommandError) -> PointFile {
        do {
            let file = try PointFileReader.read(path: path, options: options)
            if let summary = file.report.skipSummary {
                StandardStreams.error("heatmap: \(summary)\n")
            }
            if let summary = file.report.longRowSummary { StandardStreams.error("heatmap: \(summary)\n") }
            return file
        } catch {
            throw CommandError(error.description)
        }
    }
}

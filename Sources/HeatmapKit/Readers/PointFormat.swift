/// The layout of a points file.
public enum PointFormat: String, Sendable, CaseIterable {
    /// A JSON array of objects with `lat` and `lng` (Google's example), or of GeoJSON features.
    case json
    /// Comma-separated values with a header line (RFC 4180 quoting).
    case csv
    /// Tab-separated values with a header line (quoting as in CSV).
    case tsv
    /// GeoJSON: a FeatureCollection of Point and MultiPoint features, a Feature, or a bare geometry.
    case geojson
    /// Newline-delimited JSON: one object with `lat` and `lng`, or one GeoJSON Feature, per line.
    case ndjson

    /// The format that a file name's extension names (a final `.gz` is looked through), if any.
    package init?(fileName: String) {
        var name = fileName.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return nil }
        switch name[name.index(after: dot)...] {
        case "json": self = .json
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        case "geojson": self = .geojson
        case "ndjson", "jsonl", "ldjson", "geojsonl", "geojsons": self = .ndjson
        default: return nil
        }
    }

    /// Whether the JSON engine reads this format (JSON, GeoJSON and NDJSON all accept the same
    /// values: arrays of points or features, objects, and whitespace-separated sequences of them).
    var isJSON: Bool { self == .json || self == .geojson || self == .ndjson }
}

import CZlib
import Foundation
import HeatmapKit

/// A points file of a given format and exact size, written record by record: every record
/// but the last is `1,2` with a 1000-byte name, the last one has the latitude asked for and
/// a name that pads the file to the size. The line end and the final newline are chosen.
struct SampleFile {
    var format: PointFormat
    var lineEnd = "\n"
    var finalNewline = true

    /// The file's text, the number of records, and the line the last record starts on.
    struct Text {
        var text: String
        var records: Int
        var lastLine: Int
    }

    var header: String {
        switch format {
        case .csv: "lat,lng,name" + lineEnd
        case .tsv: "lat\tlng\tname" + lineEnd
        case .json: "[" + lineEnd
        case .geojson: "{\"type\": \"FeatureCollection\", \"features\": [" + lineEnd
        case .ndjson: ""
        }
    }

    var separator: String { format == .json || format == .geojson ? "," + lineEnd : lineEnd }

    var footer: String {
        let close = format == .json ? lineEnd + "]" : format == .geojson ? lineEnd + "]}" : ""
        return close + (finalNewline ? lineEnd : "")
    }

    func record(latitude: String, pad: Int) -> String {
        let name = String(repeating: "x", count: pad)
        switch format {
        case .csv: return "\(latitude),4,\(name)"
        case .tsv: return "\(latitude)\t4\t\(name)"
        case .json, .ndjson: return "{\"lat\": \(latitude), \"lng\": 4, \"name\": \"\(name)\"}"
        case .geojson:
            return "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [4, \(latitude)]}, "
                + "\"properties\": {\"name\": \"\(name)\"}}"
        }
    }

    /// The size of a file of one record with an empty name.
    var minimumSize: Int { header.utf8.count + record(latitude: "3", pad: 0).utf8.count + footer.utf8.count }

    /// A file of exactly `size` bytes whose last record has latitude `last` (two characters
    /// at most), or `nil` if `size` is below ``minimumSize``.
    func text(size: Int, last: String = "3") -> Text? {
        let full = record(latitude: "1", pad: 1000) + separator
        let fixed = header.utf8.count + record(latitude: last, pad: 0).utf8.count + footer.utf8.count
        guard size >= fixed else { return nil }
        let before = (size - fixed) / full.utf8.count
        let pad = size - fixed - before * full.utf8.count
        let body = header + String(repeating: full, count: before)
        let text = body + record(latitude: last, pad: pad) + footer
        let lastLine = body.utf8.count { $0 == 10 } + 1
        return Text(text: text, records: before + 1, lastLine: lastLine)
    }

    /// The file's name: `points.csv`, `points.geojson.gz`, …
    func name(gzipped: Bool) -> String { "points.\(format.rawValue)" + (gzipped ? ".gz" : "") }
}

extension ReaderFiles {
    /// Removes a file written by `write(_:name:)` and its folder.
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    /// `bytes` compressed by zlib as one gzip member.
    static func gzip(_ bytes: Data, level: Int32 = 6) throws -> Data {
        let path = try write(Data(), name: "gzip.gz")
        defer { remove(path) }
        guard let file = gzopen(path, "wb\(level)") else { throw CocoaError(.fileWriteUnknown) }
        let written = bytes.withUnsafeBytes { gzwrite(file, $0.baseAddress, UInt32($0.count)) }
        guard gzclose(file) == czlib_ok, written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}

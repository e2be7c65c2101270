import Foundation
import HeatmapCore
import HeatmapKit

/// Writes the benchmark's points for other tools to render the same data, and what they need
/// to draw the same picture (`bench/compare_datashader.py`).
enum Export {
    /// `folder/points.f64`: latitude, longitude and weight of each point as little-endian
    /// float64, 24 bytes a point; `folder/points.csv`: the same numbers as text (`lat,lng,weight`,
    /// each the shortest text that reads back as the same Double), which `heatmap tile` reads to
    /// draw the peer's tiles with `--format intensity`; `folder/colormap.rgba`: the colour map
    /// `heatmap tile` colours with (the 160-entry palette default at opacity 0.7), 4 bytes an
    /// entry.
    static func write(_ points: [WeightedLatLng], to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let base = URL(fileURLWithPath: folder)
        var bytes = [UInt8]()
        bytes.reserveCapacity(points.count * 24)
        for p in points {
            for value in [p.coordinate.latitude, p.coordinate.longitude, p.intensity] {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        try Data(bytes).write(to: base.appendingPathComponent("points.f64"))
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: "lat,lng,weight\n".utf8)
        for p in points {
            let line = "\(p.coordinate.latitude),\(p.coordinate.longitude),\(p.intensity)\n"
            bytes.append(contentsOf: line.utf8)
        }
        try Data(bytes).write(to: base.appendingPathComponent("points.csv"))
        let colours = ColorMap(gradient: .paletteDefault, opacity: 0.7)
        try Data(colours.entries).write(to: base.appendingPathComponent("colormap.rgba"))
    }
}

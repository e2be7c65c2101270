import Foundation
import HeatmapKit

/// Writes the benchmark's points for other tools to render the same data.
enum Export {
    /// `folder/points.f64`: latitude, longitude and weight of each point as little-endian
    /// float64, 24 bytes a point.
    static func write(_ points: [WeightedLatLng], to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var bytes = [UInt8]()
        bytes.reserveCapacity(points.count * 24)
        for p in points {
            for value in [p.coordinate.latitude, p.coordinate.longitude, p.intensity] {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: folder).appendingPathComponent("points.f64"))
    }
}

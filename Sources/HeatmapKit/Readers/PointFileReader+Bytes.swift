import Foundation
import HeatmapCore

extension PointFileReader {
    /// Reads points from bytes in memory (an HTTP request's body, say) as
    /// ``readPoints(path:options:)`` reads a file: the same formats, gzip inflated whatever
    /// the format, the same checks, the points in order with their exact coordinates.
    ///
    /// - Parameters:
    ///   - bytes: the data, gzip-compressed or not.
    ///   - name: what errors call the bytes (`request body:3: latitude "91" is out of range …`).
    ///   - options: the format, the columns and whether to skip invalid rows.
    /// - Throws: ``PointFileError`` naming `name`, the line (and column) and what was expected.
    package static func readPoints(bytes: [UInt8], name: String, options: PointReadOptions) throws(PointFileError)
        -> (points: [WeightedLatLng], report: PointFileReport)
    {
        let read = try readFilteredPoints(bytes: bytes, name: name, options: options)
        return (read.points, read.report)
    }

    /// ``readPoints(bytes:name:options:)`` with the points' times and categories (see
    /// ``readFilteredPoints(path:options:)``): a live body for a layer read with `--time` or
    /// `--categories`.
    ///
    /// - Throws: ``PointFileError`` naming `name`, the line (and column) and what was expected.
    package static func readFilteredPoints(bytes: [UInt8], name: String, options: PointReadOptions)
        throws(PointFileError) -> (points: [WeightedLatLng], filters: FilterIndex?, report: PointFileReport)
    {
        let (path, cleanUp) = try spill(bytes, name: name)
        defer { cleanUp() }
        do {
            return try readFilteredPoints(path: path, options: options)
        } catch {
            var renamed = error
            renamed.path = name
            renamed.reason = renamed.reason.replacingOccurrences(of: path, with: name)
            throw renamed
        }
    }

    /// The bytes in a temporary file (mode 0600, removed when read), and how to let it go.
    private static func spill(_ bytes: [UInt8], name: String) throws(PointFileError) -> (String, () -> Void) {
        var template = Array((NSTemporaryDirectory() + "/heatmap-body-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let close: () -> Void = {
            _ = closeFile(descriptor)
            unlink(path)
        }
        guard descriptor >= 0 else {
            throw PointFileError(path: name, reason: "cannot be buffered (\(String(cString: strerror(errno))))")
        }
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes {
                write(descriptor, $0.baseAddress.map { $0 + written }, bytes.count - written)
            }
            guard n > 0 else {
                close()
                throw PointFileError(path: name, reason: "cannot be buffered (\(String(cString: strerror(errno))))")
            }
            written += n
        }
        return (path, close)
    }
}

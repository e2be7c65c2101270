import HeatmapCore
import HeatmapKit

extension PostgresSource {
    /// The largest intensity of the pixels `columns` × `rows` (columns may run past the
    /// world's edges by less than a world, rows inside it) and of the padding around them:
    /// exact for those pixels, a lower bound in the padding. The weight of every occupied pixel
    /// of the rectangle padded by the kernel's reach (the statements tiles use, one per copy of
    /// the world the columns overlap), convolved in memory over that padded rectangle as a
    /// tile's are.
    ///
    /// The convolution sums in a canonical order whatever the occupancy around a pixel (see
    /// `GatheredCells.convolve`), so each pixel's value is the one the in-memory stand-in of
    /// ``regionMaximum(columns:rows:space:kernel:on:)`` finds for it, bit for bit, without
    /// building an index of the pixels; the padding's values (the weights beyond it are not
    /// read) are lower bounds there too, which raise the best early as they did.
    func pixelMaximum(
        columns pixelColumns: ClosedRange<Int>, rows pixelRows: ClosedRange<Int>, space: PixelSpace,
        kernel: GaussianKernel, on connection: PostgresConnection
    ) throws(PostgresError) -> Float {
        let world = space.worldSize
        let top = max(0, pixelRows.lowerBound)
        let bottom = min(world - 1, pixelRows.upperBound)
        guard top <= bottom else { return 0 }
        let rows = max(0, top - kernel.radius)..<min(world, bottom + 1 + kernel.radius)
        // The padded columns, split where they cross the antimeridian.
        let columns = (pixelColumns.lowerBound - kernel.radius)..<(pixelColumns.upperBound + 1 + kernel.radius)
        var parts: [Range<Int>] = []
        for copy in [-world, 0, world] {
            let low = max(0, columns.lowerBound - copy)
            let high = min(world, columns.upperBound - copy)
            if low < high { parts.append(low..<high) }
        }
        var pixels: [(x: UInt64, y: UInt64, weight: Double)] = []
        for part in parts {
            let (sql, parameters) = pixelStatement(columns: part, rows: rows, space: space)
            let result = try connection.executePrepared(sql, parameters, binary: true)
            if let hook = hooks.afterStatement.withLock({ $0 }) { hook() }
            pixels.reserveCapacity(pixels.count + result.rowCount)
            for row in 0..<result.rowCount {
                guard let column = result.int64(row, 0), let line = result.int64(row, 1),
                    let weight = result.double(row, 2), part.contains(Int(clamping: column)),
                    rows.contains(Int(clamping: line))
                else { throw .invalidAnswer("a pixel's position or weight is missing or outside the query") }
                guard weight.isFinite, weight >= 0, weight <= Double(Float.greatestFiniteMagnitude) else {
                    throw .invalidAnswer("pixel \(column), \(line) of weight \(weight): not a finite number ≥ 0")
                }
                // As the stand-in stores it: a 32-bit float.
                pixels.append((UInt64(column), UInt64(line), Double(Float(weight))))
            }
        }
        guard !pixels.isEmpty else { return 0 }
        let rect = PixelRect(
            x: pixelColumns.lowerBound - kernel.radius, y: rows.lowerBound,
            width: pixelColumns.count + 2 * kernel.radius,
            height: rows.count)
        return CellWeights(pixels).intensity(in: rect, space: space, kernel: kernel).maximum
    }
}

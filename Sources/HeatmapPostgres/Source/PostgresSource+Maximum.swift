import HeatmapCore
import HeatmapKit

extension PostgresSource {
    /// The zooms from which M(z) is found region by region rather than from the root.
    static var regionZooms: ClosedRange<Int> { 5...22 }

    /// How M(z) is searched at the regional zooms (the benchmark compares them).
    public enum MaximumSearch: Sendable {
        /// From cells bounded by the kernel's shape (`PostgresSource+KernelMaximum.swift`).
        case kernel
        /// From cells bounded by their weight alone (`PostgresSource+PrunedMaximum.swift`).
        case pruned
    }

    /// M(z), exact, in bounded memory and few statements at fine zooms: the regions around
    /// the cells heavy enough to hold a brighter pixel than the best found so far (see
    /// `PostgresSource+PrunedMaximum.swift`); for each, one statement returns the weight of
    /// every occupied pixel of the region padded by the kernel's reach, which an in-memory
    /// ``PointIndex`` stand-in (a point at each pixel's centre, of the pixel's weight) searches
    /// with the exact in-memory search. Every pixel of a region sees all its neighbours in the
    /// stand-in, so its intensity there is exact; pixels of the padding see fewer, so theirs
    /// are lower bounds. Coarser zooms, and tables without an index on the key, and sharded
    /// tables (whose regions would be summed on the coordinator), search from the root (over
    /// the summaries where they hold): `nil` here. Every statement runs on `connection`,
    /// inside the caller's snapshot.
    func regionalMaximum(
        space: PixelSpace, kernel: GaussianKernel, search: MaximumSearch = .kernel, on connection: PostgresConnection
    ) throws(PostgresError) -> (value: Float, place: PixelRect?)? {
        // Without an index on the key, every region's statement would read the whole table.
        guard Self.regionZooms.contains(space.zoom), layout.keyIndexed, layout.partitionShift == nil else {
            return nil
        }
        // The search's statements are many and short, and their costs are inflated by
        // `enable_sort`/`enable_hashagg` off: PostgreSQL's JIT would compile each of them,
        // about a second apiece under load (its own run rarely takes that long).
        try connection.execute("SELECT set_config('jit', 'off', true)")
        switch search {
        case .kernel: return try kernelMaximum(space: space, kernel: kernel, on: connection)
        case .pruned: return try prunedMaximum(space: space, kernel: kernel, on: connection).map { ($0, nil) }
        }
    }

    /// The largest intensity the stand-in of one region (cell `cx`, `cy` of `level` units)
    /// finds: exact for the region's pixels, a lower bound elsewhere.
    func regionMaximum(
        level: Int, cx: UInt64, cy: UInt64, space: PixelSpace, kernel: GaussianKernel, on connection: PostgresConnection
    ) throws(PostgresError) -> Float {
        try regionMaximum(
            cells: (level, cx...cx, cy...cy), space: space, kernel: kernel, on: connection)
    }

    /// The largest intensity the stand-in of the cells `columns` × `rows` of `level` units
    /// (columns and rows inside the world) finds: exact for their pixels, a lower bound elsewhere.
    func regionMaximum(
        cells: (level: Int, columns: ClosedRange<UInt64>, rows: ClosedRange<UInt64>), space: PixelSpace,
        kernel: GaussianKernel, on connection: PostgresConnection
    ) throws(PostgresError) -> Float {
        let level = UInt64(cells.level)
        let first = space.pixel(ofUnit: cells.columns.lowerBound << level)
        let last = space.pixel(ofUnit: ((cells.columns.upperBound + 1) << level) - 1)
        let top = space.pixel(ofUnit: cells.rows.lowerBound << level)
        let bottom = space.pixel(ofUnit: ((cells.rows.upperBound + 1) << level) - 1)
        return try regionMaximum(
            columns: first...last, rows: top...bottom, space: space, kernel: kernel, on: connection)
    }

    /// The largest intensity the stand-in of the pixels `columns` × `rows` finds (columns may
    /// run past the world's edges by less than a world, rows inside it): exact for those
    /// pixels, a lower bound elsewhere.
    func regionMaximum(
        columns pixelColumns: ClosedRange<Int>, rows pixelRows: ClosedRange<Int>, space: PixelSpace,
        kernel: GaussianKernel, on connection: PostgresConnection
    ) throws(PostgresError) -> Float {
        let world = space.worldSize
        let (first, last, top, bottom) = (
            pixelColumns.lowerBound, pixelColumns.upperBound, pixelRows.lowerBound, pixelRows.upperBound
        )
        let rows = max(0, top - kernel.radius)..<min(world, bottom + 1 + kernel.radius)
        var builder = PointIndex.Builder()
        // The padded columns, split where they cross the antimeridian.
        let columns = (first - kernel.radius)..<(last + 1 + kernel.radius)
        var parts: [Range<Int>] = []
        for copy in [-world, 0, world] {
            let low = max(0, columns.lowerBound - copy)
            let high = min(world, columns.upperBound - copy)
            if low < high { parts.append(low..<high) }
        }
        for part in parts {
            let (sql, parameters) = pixelStatement(columns: part, rows: rows, space: space)
            let result = try connection.executePrepared(sql, parameters, binary: true)
            if let hook = hooks.afterStatement.withLock({ $0 }) { hook() }
            for row in 0..<result.rowCount {
                guard let column = result.int64(row, 0), let line = result.int64(row, 1),
                    let weight = result.double(row, 2), part.contains(Int(clamping: column)),
                    rows.contains(Int(clamping: line))
                else { throw .invalidAnswer("a pixel's position or weight is missing or outside the query") }
                let x = Int(column)
                let y = Int(line)
                // The pixel's centre, in degrees: the stand-in point falls in the same pixel.
                let fx = (Double(space.firstUnit(ofPixel: x)) + Double(space.firstUnit(ofPixel: x + 1))) / 2 / 0x1p32
                let fy = (Double(space.firstUnit(ofPixel: y)) + Double(space.firstUnit(ofPixel: y + 1))) / 2 / 0x1p32
                do {
                    try builder.append(
                        latitude: WebMercator.latitude(worldFraction: fy),
                        longitude: WebMercator.longitude(worldFraction: fx), intensity: weight)
                } catch {
                    throw .invalidAnswer("pixel \(x), \(y) of weight \(weight): \(error)")
                }
            }
        }
        guard builder.count > 0 else { return 0 }
        return builder.build().maximumIntensity(space: space, kernel: kernel)
    }

    /// The statement for the pixel weights of `columns` × `rows` (inside the world), as tiles
    /// read them (from the summaries while they hold the pixels' level).
    func pixelStatement(columns: Range<Int>, rows: Range<Int>, space: PixelSpace) -> (String, [String?]) {
        statement(space: space, columns: columns, rows: rows)
    }
}

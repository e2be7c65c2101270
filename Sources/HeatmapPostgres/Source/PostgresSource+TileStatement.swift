import HeatmapCore
import HeatmapKit
import Synchronization

/// What a tile's statement over the rows needs that does not change from tile to tile: its
/// text per table layout, made once, and each table's finest summary level, read once. Shared
/// by every version of a source (a sparse tile's statement is then a few microseconds of
/// work in the client, against tens when its text and parameters were formatted each time).
final class TileStatements: Sendable {
    private let texts = Mutex<[TableLayout: String]>([:])
    private let finest = Mutex<[String: Int]>([:])
    /// The rows of the summaries' finest cells around recent tiles (see ``CellOccupancy``).
    let occupancy = CellOccupancy()

    /// The counted text for `layout`, made by `make` the first time.
    func text(for layout: TableLayout, _ make: () -> String) -> String {
        if let known = texts.withLock({ $0[layout] }) { return known }
        let made = make()
        texts.withLock { $0[layout] = made }
        return made
    }

    /// The finest level `import` kept in the summaries of the table `name` (`schema.name`), as
    /// first read; a level finer than any when the table has none. A table imported again
    /// may keep finer levels than this: its tiles then read rows where summaries would do,
    /// which is exact, only slower.
    func finestLevel(of name: String, on connection: PostgresConnection) throws(PostgresError) -> Int {
        if let known = finest.withLock({ $0[name] }) { return known }
        let result = try connection.execute("SELECT finest FROM heatmap_summaries WHERE table_name = $1", [name])
        let level = result.text(0, 0).flatMap { Int($0) } ?? CellSummaries.levels.upperBound + 1
        finest.withLock { $0[name] = level }
        return level
    }
}

extension PostgresSource {
    /// A pinned version's tile statement over the rows of a table on one server with a key
    /// index (see ``countedStatement(for:)``: the change count first, then the pixels), its
    /// text made once and its key ranges formatted straight into bytes; `nil` where the tile
    /// may read the summaries, or for a sharded table or one without a key index, which take
    /// ``countedStatement(for:)``.
    ///
    /// The key ranges cover the rectangle with cells down to 1/8 of its side (16 ranges at
    /// most for a tile's, against 28 at 1/16): fewer B-tree descents for a sparse tile, and at
    /// most a strip 1/8 of the side wide read beyond it.
    func rowTileStatement(for query: WeightQuery, on connection: PostgresConnection) throws(PostgresError) -> (
        String, [String?]
    )? {
        guard layout.imported, !layout.qualifiedName.isEmpty, layout.keyIndexed, layout.partitionShift == nil
        else { return nil }
        // Where summaries may answer, the one statement over summaries or rows; the cell
        // summaries' statement only from their finest level (the rows answer it below).
        if let level = query.space.pixelLevel, let read = summaryRead(level: level),
            !readsRowsAlone(read, level: level, columns: query.columns, rows: query.rows)
        {
            guard read.freshness == .cells,
                level < (try hooks.tileStatements.finestLevel(of: layout.qualifiedName, on: connection))
            else { return nil }
        }
        let sql = hooks.tileStatements.text(for: layout) {
            var conditions = [
                "\(layout.x) >= $3::int8", "\(layout.x) < $4::int8", "\(layout.y) >= $5::int8",
                "\(layout.y) < $6::int8", "\(layout.weight) > 0::float8", "\(layout.weight) < 'Infinity'::float8",
            ]
            if let filter = layout.filter { conditions.append("(\(filter))") }
            // The count's row is missing for a table never changed (count 0, see ``addCounted``):
            // a plain scan of `heatmap_versions`, without the subquery `coalesce` would need.
            return
                "SELECT NULL::int8, NULL::int8, version::float8 FROM heatmap_versions WHERE table_name = $9 "
                + "UNION ALL " + rangeScan(ranges: 7, conditions: conditions)
        }
        let columns = query.unitColumns
        let rows = query.unitRows
        let ranges = try sparseRanges(KeyRanges.decomposed(columns: columns, rows: rows, detail: 8), on: connection)
        var lows: [UInt8] = [UInt8(ascii: "{")]
        var highs: [UInt8] = [UInt8(ascii: "{")]
        lows.reserveCapacity(ranges.count * 21 + 2)
        highs.reserveCapacity(ranges.count * 21 + 2)
        for (i, range) in ranges.enumerated() {
            if i > 0 {
                lows.append(UInt8(ascii: ","))
                highs.append(UInt8(ascii: ","))
            }
            Self.appendDecimal(range.lowerBound, to: &lows)
            Self.appendDecimal(range.upperBound, to: &highs)
        }
        lows.append(UInt8(ascii: "}"))
        highs.append(UInt8(ascii: "}"))
        let space = query.space
        let parameters: [String?] = [
            "\(space.scale)", "\(24 - space.zoom)", "\(columns.lowerBound)", "\(columns.upperBound)",
            "\(rows.lowerBound)", "\(rows.upperBound)", String(decoding: lows, as: UTF8.self),
            String(decoding: highs, as: UTF8.self), layout.qualifiedName,
        ]
        return (sql, parameters)
    }

    /// Appends `value` in decimal to `bytes` (without the generic formatting's cost, which
    /// was most of a sparse tile's time in the client).
    static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        )
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
        }
    }
}

import HeatmapCore

extension PostgresSource {
    /// The statement and its parameters for the pixel weights of `columns` × `rows` (inside
    /// the world) at `space`: from the summaries the level reads (``summaryRead(level:)``)
    /// while they hold the current rows, else the rows, in one statement and one snapshot;
    /// from the rows alone where no summaries serve.
    ///
    /// A time window's rows left to the rows are read by the route the counts choose
    /// (``TimeSummaryUse/route(_:codes:level:)``); where no bucket is whole, they are the whole
    /// window and no summary is read: no freshness to check, one branch unless the statement
    /// chooses. The rows' statement comes first (its six parameters of the rectangle, then the
    /// summaries' freshness and the choice's values, then its key ranges), so that a window's
    /// partial days read from the rows share its parameters; then the summaries' level,
    /// rectangle, buckets and key ranges.
    func statement(space: PixelSpace, columns: Range<Int>, rows pixelRows: Range<Int>) -> (String, [String?]) {
        let units = (
            space.firstUnit(ofPixel: columns.lowerBound)..<space.firstUnit(ofPixel: columns.upperBound),
            space.firstUnit(ofPixel: pixelRows.lowerBound)..<space.firstUnit(ofPixel: pixelRows.upperBound)
        )
        guard let level = space.pixelLevel, let read = summaryRead(level: level) else {
            return rowStatement(units: units, space: space)
        }
        let (covering, codes) = Self.covering(columns: columns, rows: pixelRows)
        if read.buckets?.buckets.isEmpty == true {
            guard let remainder = read.remainder else { return rowStatement(units: units, space: space) }
            let route = remainder.route(codes: Self.readCodes(columns: columns, rows: pixelRows), level: level)
            if route == .byKey { return rowStatement(units: units, space: space) }
            let rows = remainderRows(
                remainder, route: route, codes: codes, level: level, units: units, space: space, fresh: nil)
            return (rows.statements.joined(separator: " UNION ALL "), rows.parameters)
        }
        var parameters: [String?] = []
        var conditions: [String] = []
        var others: [String] = []
        if let (fresh, values) = read.fresh(name: layout.qualifiedName, level: level, first: 7) {
            var rows = (statements: [String](), parameters: [String?](), shared: values)
            if let remainder = read.remainder {
                let route = remainder.route(codes: Self.readCodes(columns: columns, rows: pixelRows), level: level)
                // By key, the rows left are the tile's rows of all times: the plain statement reads
                // the same, without the summaries.
                if route == .byKey { return rowStatement(units: units, space: space) }
                rows = remainderRows(
                    remainder, route: route, codes: codes, level: level, units: units, space: space,
                    fresh: (fresh, values))
            }
            let stale = rowStatement(
                units: units, space: space, firstParameters: rows.shared, condition: "NOT \(fresh)")
            parameters = stale.1
            others = [stale.0] + rows.statements
            conditions.append(fresh)
        }
        parameters += [
            "\(level)", "\(columns.lowerBound)", "\(columns.upperBound)", "\(pixelRows.lowerBound)",
            "\(pixelRows.upperBound)",
        ]
        let first = parameters.count - 3
        conditions += [
            "level = $\(first - 1)::int2", "x >= $\(first)::int8", "x < $\(first + 1)::int8",
            "y >= $\(first + 2)::int8", "y < $\(first + 3)::int8",
        ]
        let summed: String
        if read.inlineRanges {
            var ranges: [String] = []
            for range in covering {
                parameters += ["\(range.lowerBound)", "\(range.upperBound)"]
                ranges.append("key BETWEEN $\(parameters.count - 1)::int8 AND $\(parameters.count)::int8")
            }
            conditions.append("(\(ranges.joined(separator: " OR ")))")
            summed = "SELECT x, y, weight FROM \(read.table) WHERE \(conditions.joined(separator: " AND "))"
        } else {
            // The key ranges (and buckets) as arrays, one B-tree scan each: the statement's text
            // is the same for every tile, so that its prepared plan is reused.
            let buckets = read.bucketItem(first: parameters.count + 1)
            parameters += read.bucketArrays
            parameters.append("{" + covering.map { "\($0.lowerBound)" }.joined(separator: ",") + "}")
            parameters.append("{" + covering.map { "\($0.upperBound)" }.joined(separator: ",") + "}")
            conditions += [read.bucketCondition, "key BETWEEN k.low AND k.high"].compactMap { $0 }
            let ranges = "unnest($\(parameters.count - 1)::int8[], $\(parameters.count)::int8[]) AS k(low, high)"
            summed =
                "SELECT c.* FROM \(([buckets, ranges].compactMap { $0 }).joined(separator: " CROSS JOIN ")) "
                + "CROSS JOIN LATERAL (SELECT x, y, weight FROM \(read.table) WHERE "
                + "\(conditions.joined(separator: " AND ")) OFFSET 0) c"
        }
        return (([summed] + others).joined(separator: " UNION ALL "), parameters)
    }

    /// The key ranges covering the pixels `columns` × `rows`, and the same as codes.
    static func covering(columns: Range<Int>, rows: Range<Int>) -> ([ClosedRange<Int64>], [(UInt64, UInt64)]) {
        let covering = KeyRanges.covering(
            columns: UInt64(columns.lowerBound)..<UInt64(columns.upperBound),
            rows: UInt64(rows.lowerBound)..<UInt64(rows.upperBound))
        return (covering, covering.map { (UInt64(bitPattern: $0.lowerBound), UInt64(bitPattern: $0.upperBound)) })
    }

    /// Whether the pixels `columns` × `rows` of `level`, which `read` would serve, are read
    /// from the rows alone, as without summaries: a time window whose rows left to the rows
    /// are read by key (``TimeSummaryUse/route(_:codes:level:)``), or no bucket of which is whole.
    func readsRowsAlone(_ read: SummaryRead, level: Int, columns: Range<Int>, rows: Range<Int>) -> Bool {
        guard let buckets = read.buckets else { return false }
        guard let remainder = read.remainder else { return buckets.buckets.isEmpty }
        return remainder.route(codes: Self.readCodes(columns: columns, rows: rows), level: level) == .byKey
    }

    /// The codes of the key ranges a statement over the rows reads for the pixels `columns` ×
    /// `rows` (``KeyRanges/decomposed(columns:rows:detail:)``, a strip at most 1/16 of the side
    /// beyond them), as the counts estimate their rows.
    static func readCodes(columns: Range<Int>, rows: Range<Int>) -> [(UInt64, UInt64)] {
        KeyRanges.decomposed(
            columns: UInt64(
                clamping: columns.lowerBound)..<UInt64(clamping: max(columns.lowerBound, columns.upperBound)),
            rows: UInt64(clamping: rows.lowerBound)..<UInt64(clamping: max(rows.lowerBound, rows.upperBound))
        ).map { (UInt64(bitPattern: $0.lowerBound), UInt64(bitPattern: $0.upperBound)) }
    }

    /// The statements reading the rows `remainder` leaves, inside `units` at `space` (whose
    /// key ranges are `codes`, codes of `level`), by `route`: through the time's B-tree, the
    /// key's, or both, each gated by the statement's choice; while `fresh` (its condition and
    /// values, the first after the rectangle's), or always without it. Their parameters: the
    /// rectangle's six, `fresh`'s values and the choice's (`shared`), then the key ranges
    /// (where read by key).
    private func remainderRows(
        _ remainder: SummaryRead.Remainder, route: TimeSummaryUse.RowsRoute, codes: [(UInt64, UInt64)], level: Int,
        units: (Range<UInt64>, Range<UInt64>), space: PixelSpace, fresh: (String, [String?])?
    ) -> (statements: [String], parameters: [String?], shared: [String?]) {
        var shared = fresh?.1 ?? []
        let edges = ([fresh?.0, remainder.condition].compactMap { $0 }).joined(separator: " AND ")
        var choice: String?
        if route == .inStatement {
            let made = remainder.cheaperByTime(codes: codes, level: level, first: 7 + shared.count)
            shared += made.values
            choice = made.condition
        }
        // The same rows through the time's B-tree or the key's (the same parameters, or the first ones).
        let byTime = reading(filter: remainder.filter, keyIndexed: false).rowStatement(
            units: units, space: space, firstParameters: shared,
            condition: ([edges, choice].compactMap { $0 }).joined(separator: " AND "))
        let byKey = reading(filter: remainder.filter, keyIndexed: layout.keyIndexed).rowStatement(
            units: units, space: space, firstParameters: shared,
            condition: ([edges, choice.map { "NOT \($0)" }].compactMap { $0 }).joined(separator: " AND "))
        switch route {
        case .byTime: return ([byTime.0], byTime.1, shared)
        case .byKey: return ([byKey.0], byKey.1, shared)
        case .inStatement: return ([byTime.0, byKey.0], byKey.1, shared)
        }
    }

    /// M(z)'s cell statement at `level` from the summaries of `summarized` (`level`, or 24 for
    /// coarser cells, summed up), for ``cells(_:on:)``: over the key ranges `$1`, `$2` with the
    /// minimum `$3`, `ranges` as those ranges' bounds and `rows(condition)` the statement over
    /// the rows with one more condition. `nil` when the rows answer alone.
    func summaryCells(
        level: Int, ranges: [ClosedRange<Int64>], wholeWorld: Bool, parameters: inout [String?],
        rows: (String?) -> String
    ) -> String? {
        let summarized = min(level, CellSummaries.levels.upperBound)
        guard let read = summaryRead(level: summarized) else { return nil }
        // The key ranges' codes at the summaries' level: a range is whole cells of it or coarser
        // (a cell lies in one key range).
        let codes = ranges.map { range in
            (
                UInt64(bitPattern: range.lowerBound) >> UInt64(2 * summarized),
                UInt64(bitPattern: range.upperBound) >> UInt64(2 * summarized)
            )
        }
        let route = read.remainder?.route(codes: codes, level: summarized)
        // By key, the rows left are the area's rows of all times: the rows alone read the same.
        if route == .byKey { return nil }
        var conditions: [String] = []
        var stale: String?
        if let (fresh, values) = read.fresh(name: layout.qualifiedName, level: summarized, first: parameters.count + 1)
        {
            parameters += values
            conditions.append(fresh)
            stale = "NOT \(fresh)"
        }
        parameters.append("\(summarized)")
        conditions.append("level = $\(parameters.count)::int2")
        let buckets = read.bucketItem(first: parameters.count + 1)
        parameters += read.bucketArrays
        parameters.append("{" + codes.map { "\($0.0)" }.joined(separator: ",") + "}")
        parameters.append("{" + codes.map { "\($0.1)" }.joined(separator: ",") + "}")
        conditions += [read.bucketCondition, "key BETWEEN k.low AND k.high", "weight > 0"].compactMap { $0 }
        let from =
            ([buckets, "unnest($\(parameters.count - 1)::int8[], $\(parameters.count)::int8[]) AS k(low, high)"]
            .compactMap { $0 }).joined(separator: " CROSS JOIN ")
        let up = level - summarized
        let summed: String
        if read.buckets == nil, read.remainder == nil {
            // One row a cell of the level: the minimum applies inside each range's scan.
            let cells =
                up == 0
                ? "SELECT x AS cx, y AS cy, weight AS w FROM \(read.table) WHERE "
                    + "\(conditions.joined(separator: " AND ")) AND weight >= $3::float8 OFFSET 0"
                : "SELECT x >> \(up) AS cx, y >> \(up) AS cy, sum(weight) AS w FROM \(read.table) WHERE "
                    + "\(conditions.joined(separator: " AND ")) GROUP BY 1, 2 HAVING sum(weight) >= $3::float8 OFFSET 0"
            summed = "SELECT s.* FROM \(from) CROSS JOIN LATERAL (\(cells)) s"
        } else {
            // A cell's buckets (and the window's remainder from the rows) summed before the minimum.
            var parts = [
                "SELECT c.x >> \(up) AS cx, c.y >> \(up) AS cy, c.weight AS w FROM \(from) CROSS JOIN LATERAL "
                    + "(SELECT x, y, weight FROM \(read.table) WHERE \(conditions.joined(separator: " AND ")) OFFSET 0) c"
            ]
            if let remainder = read.remainder, let route, let fresh = conditions.first {
                var choice: String?
                if route == .inStatement {
                    let made = remainder.cheaperByTime(codes: codes, level: summarized, first: parameters.count + 1)
                    parameters += made.values
                    choice = made.condition
                }
                parts += remainderCells(
                    remainder, fresh: fresh, route: route, choice: choice, level: level, wholeWorld: wholeWorld)
            }
            summed =
                "SELECT cx, cy, sum(w) AS w FROM (\(parts.joined(separator: " UNION ALL "))) u GROUP BY 1, 2 "
                + "HAVING sum(w) >= $3::float8"
        }
        return stale.map { "\(summed) UNION ALL \(rows($0))" } ?? summed
    }

    /// The rows a window's summaries leave out while `fresh`, as cells of `level` (one row a
    /// row, summed by the caller), inside the key ranges `$1`, `$2` (unless `wholeWorld`), by
    /// `route`: through the time's B-tree, the key's, or both (under `choice` and its negation).
    private func remainderCells(
        _ remainder: SummaryRead.Remainder, fresh: String, route: TimeSummaryUse.RowsRoute, choice: String?,
        level: Int, wholeWorld: Bool
    ) -> [String] {
        var conditions = [
            fresh, remainder.condition, "\(layout.weight) > 0::float8", "\(layout.weight) < 'Infinity'::float8",
        ]
        if let filter = remainder.filter { conditions.append("(\(filter))") }
        let cell = "SELECT \(layout.x) >> \(level), \(layout.y) >> \(level), \(layout.weight)"
        var byTime = conditions + [choice].compactMap { $0 }
        if !wholeWorld {
            byTime.append(Self.inKeyRanges("r.\(layout.key)"))
        }
        let byKey =
            conditions + [choice.map { "NOT \($0)" }, "\(layout.key) BETWEEN k.low AND k.high"].compactMap { $0 }
        let statements = (
            time: "\(cell) FROM \(layout.table) r WHERE \(byTime.joined(separator: " AND "))",
            key: "SELECT p.* FROM unnest($1::int8[], $2::int8[]) AS k(low, high) CROSS JOIN LATERAL (\(cell) FROM "
                + "\(layout.table) WHERE \(byKey.joined(separator: " AND ")) OFFSET 0) p"
        )
        switch route {
        case .byTime: return [statements.time]
        case .byKey: return [statements.key]
        case .inStatement: return [statements.time, statements.key]
        }
    }

    /// This source reading `filter` as its row condition, with the key's B-tree or not, and
    /// no summaries.
    func reading(filter: String?, keyIndexed: Bool) -> PostgresSource {
        var rows = layout
        rows.filter = filter
        rows.keyIndexed = keyIndexed
        rows.timeSummaries = nil
        rows.summaries = nil
        rows.shardCells = nil
        return PostgresSource(copying: self, pinnedChangeCount: pinnedChangeCount, layout: rows)
    }
}

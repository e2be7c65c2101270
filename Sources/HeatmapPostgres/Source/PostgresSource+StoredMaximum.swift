import HeatmapCore
import HeatmapKit

extension PostgresSource {
    /// Sets where the notices of the M(z) store (``MaximumStore``) go, one line each: that
    /// `heatmap_maxima` is missing and cannot be made, or may be read but not written.
    /// Standard error by default.
    package func onMaximumStoreNotice(_ handler: @escaping @Sendable (String) -> Void) {
        hooks.maximumStore.notice.withLock { $0 = handler }
    }

    /// Whether this source's M(z) values may be kept in `heatmap_maxima`: a table `import` made
    /// (which has a change count), read without a `--where` filter (whose rows may change with
    /// no change counted, as `now() - interval '7 days'` does).
    var keepsMaxima: Bool { layout.imported && layout.filter == nil && !layout.qualifiedName.isEmpty }

    /// M(z) and where it lies, from `heatmap_maxima` when a value is kept there for the change
    /// count of the snapshot, else by `search` in that snapshot (and then kept, when the user
    /// may write the table). The lookup is one statement in the search's own snapshot (two for a
    /// sharded table, whose shards' logs must hold no rows the count has not gathered), so a
    /// value kept for count C is only used where the table is in state C.
    func keptOrSearchedMaximum(
        space: PixelSpace, kernel: GaussianKernel, search: (PostgresConnection) throws(PostgresError) -> MaximumFound
    ) throws(PostgresError) -> MaximumFound {
        let store = hooks.maximumStore
        let key = StoredMaximumKey(
            slot: MaximumSlotKey(zoom: space.zoom, scale: space.scale, reach: kernel.radius), weight: layout.weight)
        let access = keepsMaxima ? maximumStoreAccess() : .none
        var lookupFailure: PostgresError?
        let outcome: (found: MaximumFound, count: Int64?, kept: Bool)
        do throws(PostgresError) {
            outcome = try inSnapshot { (connection) throws(PostgresError) in
                var count: Int64?
                if access != .none {
                    let lookup: (count: Int64?, found: MaximumFound?)
                    do throws(PostgresError) {
                        lookup = try lookUpMaximum(key, on: connection)
                    } catch {
                        lookupFailure = error
                        throw error
                    }
                    if let found = lookup.found { return (found, lookup.count, true) }
                    count = lookup.count
                }
                store.searches.add(1, ordering: .relaxed)
                return (try search(connection), count, false)
            }
        } catch {
            // The table went away or its grant was revoked: go on without it.
            if let failure = lookupFailure, case .queryFailed = failure {
                store.lower(to: .none, because: "M(z) values are no longer read from heatmap_maxima: \(failure)")
                return try keptOrSearchedMaximum(space: space, kernel: kernel, search: search)
            }
            throw error
        }
        if outcome.kept { store.reused.add(1, ordering: .relaxed) }
        if let place = outcome.found.place, let count = outcome.count ?? pinnedChangeCount {
            hooks.places.record(outcome.found.value, place: place, count: count, slot: key.slot)
        }
        if !outcome.kept, let count = outcome.count, access == .readWrite {
            keep(outcome.found, key: key, count: count)
        }
        return outcome.found
    }

    /// What `search` (M(z)'s, see ``MaximumSearch``) found over the table in the snapshot of
    /// `connection`, with the search's plan settings: generic plans off (the pool forces them;
    /// the search's statements choose theirs again) and JIT off (its statements are many and
    /// short, and their costs, inflated by the hash aggregate being off, made PostgreSQL compile
    /// each, about a second apiece under load).
    func searched(
        space: PixelSpace, kernel: GaussianKernel, on connection: PostgresConnection,
        _ search: (any CellSource<PostgresError>) throws(PostgresError) -> MaximumFound
    ) throws(PostgresError) -> MaximumFound {
        try connection.choosePlansInTransaction()
        try connection.execute("SELECT set_config('jit', 'off', true)")
        var view = SnapshotSource(source: self, turns: Turns(connection), deadline: nil)
        view.cellCosts = try cellCosts(on: connection)
        return try search(view)
    }

    /// What a cell question's round trip costs, in summary rows read: a statement's parse, plan
    /// and round trip take about what a few thousand rows of a range scan do (see
    /// ``CellCosts/questionCells``).
    static var questionCells: Int { 4096 }

    /// What cell questions cost the table: its summaries' finest level (read in the snapshot)
    /// while they serve its weights; a gather's where it has no cell statement (see
    /// ``GatheredCellSource``).
    func cellCosts(on connection: PostgresConnection) throws(PostgresError) -> CellCosts {
        guard answersCells else { return GatheredCellSource<SnapshotSource>.costs }
        guard layout.summaries != nil, layout.filter == nil else {
            return CellCosts(isRemote: true, questionCells: Self.questionCells)
        }
        let result = try connection.execute(
            "SELECT finest FROM heatmap_summaries WHERE table_name = $1", [layout.qualifiedName])
        return CellCosts(
            summarized: result.text(0, 0).flatMap { Int($0) }, isRemote: true, questionCells: Self.questionCells)
    }

    /// The snapshot's change count and the value kept for it, if any; the count is `nil` when
    /// the table has none, or when a shard's log holds rows it has not gathered (the rows then
    /// differ from the count's: nothing is read or kept).
    func lookUpMaximum(_ key: StoredMaximumKey, on connection: PostgresConnection) throws(PostgresError)
        -> (count: Int64?, found: MaximumFound?)
    {
        var parameters: [String?] = [layout.qualifiedName, layout.table] + key.parameters
        var pending = "false"
        if layout.partitionShift != nil {
            let logs = try shardLogsAhead(parameters: &parameters, on: connection)
            guard logs.skipped == 0, let condition = logs.condition else { return (nil, nil) }
            pending = condition
        }
        let result = try connection.execute(
            """
            SELECT v.version, m.value, m.place_x, m.place_y, m.place_width, m.place_height, \(pending) \
            FROM heatmap_versions v LEFT JOIN heatmap_maxima m ON m.table_name = v.table_name \
            AND m.version = v.version AND m.table_oid = to_regclass($2)::oid AND m.weight = $3 \
            AND m.zoom = $4::int2 AND m.scale = $5::int2 AND m.reach = $6::int4 \
            WHERE v.table_name = $1
            """, parameters)
        guard result.rowCount == 1, let count = result.text(0, 0).flatMap({ Int64($0) }), result.text(0, 6) == "f"
        else { return (nil, nil) }
        if let expected = pinnedChangeCount, expected != count { return (nil, nil) }
        guard let value = result.text(0, 1).flatMap({ Float($0) }), value.isFinite, value >= 0 else {
            return (count, nil)
        }
        let place = (2...5).map { result.text(0, $0).flatMap { Int($0) } }
        if let x = place[0], let y = place[1], let width = place[2], let height = place[3], width > 0, height > 0 {
            return (count, MaximumFound(value: value, place: PixelRect(x: x, y: y, width: width, height: height)))
        }
        return (count, MaximumFound(value: value, place: nil))
    }

    /// Keeps `found` for change count `count`, and drops the slot's older counts but the newest
    /// few (and every row of another table that had this one's name). A failure does not fail
    /// M(z): the value is simply not kept (and no more are, but for a lost connection).
    func keep(_ found: MaximumFound, key: StoredMaximumKey, count: Int64) {
        let place = found.place
        let parameters: [String?] =
            [layout.qualifiedName, layout.table] + key.parameters + [
                "\(count)", "\(found.value)", place.map { "\($0.x)" }, place.map { "\($0.y)" },
                place.map { "\($0.width)" }, place.map { "\($0.height)" },
            ]
        let slot = "weight = $3 AND zoom = $4::int2 AND scale = $5::int2 AND reach = $6::int4"
        do throws(PostgresError) {
            try pool.with { (connection) throws(PostgresError) in
                try connection.execute(
                    """
                    INSERT INTO heatmap_maxima AS m (table_name, table_oid, weight, zoom, scale, reach, version, value, \
                    place_x, place_y, place_width, place_height) VALUES ($1, to_regclass($2)::oid, $3, $4::int2, \
                    $5::int2, $6::int4, $7::int8, $8::real, $9::int8, $10::int8, $11::int8, $12::int8) \
                    ON CONFLICT (table_name, weight, zoom, scale, reach, version) DO UPDATE SET \
                    table_oid = EXCLUDED.table_oid, value = EXCLUDED.value, place_x = EXCLUDED.place_x, \
                    place_y = EXCLUDED.place_y, place_width = EXCLUDED.place_width, \
                    place_height = EXCLUDED.place_height, found_at = now()
                    """, parameters)
                try connection.execute(
                    """
                    DELETE FROM heatmap_maxima WHERE table_name = $1 AND (table_oid IS DISTINCT FROM \
                    to_regclass($2)::oid OR (\(slot) AND version < (SELECT min(version) FROM (SELECT version \
                    FROM heatmap_maxima WHERE table_name = $1 AND \(slot) ORDER BY version DESC LIMIT \
                    \(MaximumStore.keptCounts)) AS newest)))
                    """, Array(parameters[0..<6]))
            }
        } catch {
            guard !error.isUnavailable else { return }
            hooks.maximumStore.lower(
                to: .read, because: "M(z) values found are no longer kept in heatmap_maxima: \(error)")
        }
    }
}

extension PostgresSource: CellSource {
    /// The cells of `query`, in a snapshot of their own (M(z)'s search asks in its snapshot).
    package func occupiedCells(_ query: CellQuery) throws(PostgresError) -> OccupiedCells {
        try inSnapshot { (connection) throws(PostgresError) in
            try SnapshotSource(source: self, turns: Turns(connection), deadline: nil).occupiedCells(query)
        }
    }

    /// M(z)'s search in one snapshot, with `heatmap_maxima` in front (see
    /// ``keptOrSearchedMaximum(space:kernel:search:)``): every statement of the search sees one
    /// state of the table, and the value found is kept for that state's change count.
    package func maximum(
        space: PixelSpace, kernel: GaussianKernel,
        searching search: (any CellSource<PostgresError>) throws(PostgresError) -> MaximumFound
    ) throws(PostgresError) -> MaximumFound {
        try keptOrSearchedMaximum(space: space, kernel: kernel) { (connection) throws(PostgresError) in
            try searched(space: space, kernel: kernel, on: connection, search)
        }
    }
}

import HeatmapCore
import HeatmapKit
import Synchronization

extension PostgresSource {
    /// The cells the table's rows changed in between the change counts `old` (exclusive) and
    /// `new` (inclusive), from the change log that `import` installs (see ``ChangeLog``), in
    /// one statement (one snapshot); `nil` when the log cannot say: a plain table, one
    /// imported before the log existed (or a sharded table made without `import --shard`, see
    /// ``ShardChangeLog``), or a log pruned past `old`.
    package func changes(after old: Int64, through new: Int64) throws(PostgresError) -> TableChanges? {
        guard layout.imported, new >= old else { return nil }
        return try pool.with { (connection) throws(PostgresError) -> TableChanges? in
            let exists = try connection.execute(
                "SELECT to_regclass('heatmap_changes') IS NOT NULL AND to_regclass('heatmap_change_logs') IS NOT NULL")
            guard exists.text(0, 0) == "t" else { return nil }
            let result = try connection.execute(
                """
                SELECT -1, complete_after, 0, false FROM heatmap_change_logs WHERE table_name = $1 UNION ALL \
                SELECT DISTINCT level, x, y, removed FROM heatmap_changes \
                WHERE table_name = $1 AND version > $2::int8 AND version <= $3::int8
                """, [layout.qualifiedName, "\(old)", "\(new)"])
            var changes = TableChanges(added: [], removed: [])
            var complete = false
            for row in 0..<result.rowCount {
                guard let level = result.text(row, 0).flatMap({ Int($0) }) else { return nil }
                if level == -1 {
                    guard let after = result.text(row, 1).flatMap({ Int64($0) }) else { return nil }
                    complete = after <= old
                    continue
                }
                guard (0...ChangeLog.wholeWorld).contains(level) else { return nil }
                let x = result.text(row, 1).flatMap { UInt64($0) } ?? 0
                let y = result.text(row, 2).flatMap { UInt64($0) } ?? 0
                let cell = TableChanges.Cell(level: level, x: x, y: y)
                if result.text(row, 3) == "t" { changes.removed.insert(cell) } else { changes.added.insert(cell) }
            }
            return complete ? changes : nil
        }
    }

    /// The most pixels of reached area whose intensities are read to raise an M(z) after
    /// additions; beyond it, that M(z) is searched again in full.
    static var reachedPixelBudget: Int { 1 << 22 }

    /// How a server moves from the version of change count `old` to this one (pinned to the
    /// new count) without dropping what still holds, or `nil` to swap in a whole new version
    /// (the log cannot say, or a `TRUNCATE`). Each M(z) of `knownMaxima` (the old version's)
    /// is made exact for the new rows:
    /// - after additions only, M(z) = max(old M(z), the largest intensity now over the area
    ///   the changes reach, each changed cell grown by the kernel's reach): pixels outside it
    ///   kept their intensity, those in it only grew;
    /// - after removals (a `DELETE`, or an `UPDATE`'s old rows) whose reach misses the place
    ///   the old M(z) was found in (see ``MaximumPlaces``), the same: the pixel of the old
    ///   maximum kept its intensity, every other one outside the reached area too, and those
    ///   in it are read again; when the reach meets that place (or it is not known), the old
    ///   maximum's pixel may have lost weight, so M(z) is searched again in full, on the new
    ///   version;
    /// - a value that cannot be found (the reached area above ``reachedPixelBudget``, a failed
    ///   statement) is left out and computed again when a tile asks.
    /// A server drops the cached tiles the changes reach and every tile of a zoom whose M(z)
    /// moved or was left out.
    package func partialUpdate(after old: Int64, knownMaxima: [MaximumSlotKey: Float]) -> PartialUpdate? {
        guard let new = pinnedChangeCount, let changes = try? changes(after: old, through: new),
            !changes.isWholeWorld
        else { return nil }
        // Read from any state: one newer than this version's makes its tiles fail anyway, and
        // the next update (from this count) makes the values exact for that state.
        let free = pinned(toChangeCount: nil)
        var maxima: [MaximumSlotKey: Float] = [:]
        for (key, value) in knownMaxima {
            guard let space = try? PixelSpace(zoom: key.zoom, scale: key.scale) else { continue }
            let kernel = GaussianKernel(radius: key.reach)
            let place = hooks.places.place(of: value, count: old, slot: key)
            if !changes.removed.isEmpty,
                place.map({
                    TableChanges(added: [], removed: changes.removed).reaches($0, space: space, reach: key.reach)
                }) ?? true
            {
                hooks.places.fullSearches.add(1, ordering: .relaxed)
                if let found = try? free.maximumFound(space: space, kernel: kernel) {
                    maxima[key] = found.value
                    if let foundPlace = found.place {
                        hooks.places.record(found.value, place: foundPlace, count: new, slot: key)
                    }
                }
                continue
            }
            let rects = changes.reachedRects(space: space, reach: key.reach)
            guard rects.reduce(0, { $0 + $1.width * $1.height }) <= Self.reachedPixelBudget else { continue }
            var best = value
            var bestPlace = place
            var failed = false
            for rect in rects {
                guard let grid = try? free.intensity(in: rect, space: space, kernel: kernel) else {
                    failed = true
                    break
                }
                if grid.maximum > best {
                    best = grid.maximum
                    bestPlace = rect
                }
            }
            if !failed {
                maxima[key] = best
                if let bestPlace { hooks.places.record(best, place: bestPlace, count: new, slot: key) }
            }
        }
        let reached = ReachedTiles(changes)
        return PartialUpdate(maxima: maxima) { space, reach, x, y in
            reached.reaches(space: space, reach: reach, x: x, y: y)
        }
    }
}

/// The areas a change reaches, found once per pixel space and reach.
private final class ReachedTiles: Sendable {
    let changes: TableChanges
    let found = Mutex<[RectsKey: Set<PixelRect>]>([:])

    struct RectsKey: Hashable {
        var space: PixelSpace
        var reach: Int
    }

    init(_ changes: TableChanges) {
        self.changes = changes
    }

    /// Whether one of the reached rectangles meets tile `x`, `y`, the world's columns wrapping
    /// (a rectangle may start east of the tile and run past the antimeridian onto it).
    func reaches(space: PixelSpace, reach: Int, x: Int, y: Int) -> Bool {
        let key = RectsKey(space: space, reach: reach)
        let rects =
            found.withLock { $0[key] }
            ?? {
                let rects = changes.reachedRects(space: space, reach: reach)
                found.withLock { $0[key] = rects }
                return rects
            }()
        let side = space.tileSize
        let (tx, ty) = (x * side, y * side)
        return rects.contains { rect in
            guard rect.y < ty + side, ty < rect.y + rect.height else { return false }
            return [rect.x, rect.x - space.worldSize].contains { x0 in x0 < tx + side && tx < x0 + rect.width }
        }
    }
}

import Foundation
import HeatmapKit
import Synchronization

/// The exact M(z) values found, kept in the database (`heatmap_maxima`) per table, weight,
/// zoom, scale, kernel reach and change count, with the place each lies in, so that no
/// process searches the same M(z) twice: a value stored for change count C is used only in a
/// snapshot whose count is C. `import` makes the table; for a table imported before, the first
/// M(z) makes it when the user may, else every process searches as before (one line on
/// standard error). Shared by every version of a source (see ``SourceHooks``).
final class MaximumStore: Sendable {
    /// What this source's user may do with `heatmap_maxima`.
    enum Access: Sendable, Hashable {
        /// Not yet asked.
        case unknown
        /// Not used: the table is missing and cannot be made, unreadable, or the source is not
        /// one whose values may be kept (a `--where` filter, a plain table).
        case none
        /// Stored values are used; values found are not kept.
        case read
        /// Stored values are used and values found are kept.
        case readWrite
    }

    let access = Mutex<Access>(.unknown)
    /// The M(z) searches the source ran (the tests count them).
    let searches = Atomic(0)
    /// The M(z) values the source took from the table instead of searching.
    let reused = Atomic(0)
    /// Where the store's notices go: one line each, standard error by default.
    let notice = Mutex<@Sendable (String) -> Void>({ line in
        FileHandle.standardError.write(Data(("heatmap: " + line + "\n").utf8))
    })

    /// The change counts kept per table, weight, zoom, scale and reach: the newest few, so that
    /// servers a change or two behind still find theirs; older ones are deleted as new ones come.
    static var keptCounts: Int { 4 }

    /// The table, shared by every imported table of the database (in the first schema of the
    /// search path, beside `heatmap_versions`).
    static let createStatement = """
        CREATE TABLE IF NOT EXISTS heatmap_maxima (
            table_name text NOT NULL, table_oid oid NOT NULL, weight text NOT NULL,
            zoom int2 NOT NULL, scale int2 NOT NULL, reach int4 NOT NULL, version bigint NOT NULL,
            value real NOT NULL, place_x int8, place_y int8, place_width int8, place_height int8,
            found_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (table_name, weight, zoom, scale, reach, version)
        )
        """

    /// The table as an object HeatmapKit makes (see ``ImportObjects``), to check and mark.
    static var object: MadeObject {
        ImportObjects.tables.first { $0.name == "heatmap_maxima" }
            ?? MadeObject(kind: .table, name: "heatmap_maxima", what: "M(z) values found")
    }

    /// Tells the notice handler `line`.
    func say(_ line: String) {
        let handler = notice.withLock { $0 }
        handler(line)
    }

    /// Sets the access found, and says `line` when this is the first answer (two threads may
    /// ask at once; one line is said).
    func settle(_ found: Access, saying line: String?) {
        let first = access.withLock { access in
            defer { access = found }
            return access == .unknown
        }
        if first, let line { say(line) }
    }

    /// Lowers the access after a statement on the table failed, saying so once.
    func lower(to lower: Access, because reason: String) {
        let changed = access.withLock { access in
            let before = access
            if lower == .none || access == .readWrite { access = lower }
            return before != access
        }
        if changed { say(reason) }
    }
}

/// The slot of one M(z) in `heatmap_maxima`: its parameters, as statement parameters.
struct StoredMaximumKey: Sendable, Hashable {
    var slot: MaximumSlotKey
    /// The weight expression the source draws (its column, or `1`).
    var weight: String

    var parameters: [String?] { [weight, "\(slot.zoom)", "\(slot.scale)", "\(slot.reach)"] }
}

/// An object HeatmapKit makes in a database (a table, index, view, foreign table, trigger,
/// function or foreign server), and how one found under its name is known to be HeatmapKit's:
/// by its mark, a comment starting `heatmapkit` (``markStatement``), or, for one made by a
/// version before the marks, by ``recognised``: evidence only HeatmapKit leaves (a table of
/// exactly `import`'s columns with a trigger calling `heatmap_fill_position()`, a trigger
/// calling one of HeatmapKit's trigger functions, a function of HeatmapKit's language, result
/// and body, …). ``MadeObject/check(_:on:)`` finds each before anything is written: one that
/// exists and is neither is an error naming it, and `import` writes nothing.
///
/// User mappings are not objects of their own here: they belong to a foreign server, which is.
/// `import` makes no sequences.
struct MadeObject: Sendable, Hashable {
    /// What kind of object, as `COMMENT ON` and messages name it.
    enum Kind: String, Sendable, Hashable {
        case table, index, view
        case foreignTable = "foreign table"
        case trigger, function
        case server = "foreign server"

        /// The `relkind`s of a relation of this kind.
        var relationKinds: Set<String> {
            switch self {
            case .table: return ["r", "p"]
            case .index: return ["i", "I"]
            case .view: return ["v"]
            case .foreignTable: return ["f"]
            case .trigger, .function, .server: return []
            }
        }

        /// The words of `COMMENT ON`.
        var commentKind: String {
            switch self {
            case .server: return "SERVER"
            default: return rawValue.uppercased()
            }
        }
    }

    var kind: Kind
    /// Its name: a relation's as SQL writes it (quoted, maybe schema-qualified), a function's
    /// signature (`heatmap_key(float8, float8)`), a trigger's or a server's own (unquoted).
    var name: String
    /// A trigger's table, quoted.
    var table: String?
    /// What it is, for its mark (`heatmapkit: <what>`).
    var what: String
    /// How an unmarked one is known to be an earlier HeatmapKit's: any of these; none, only a mark.
    var recognised: [Evidence] = []

    /// An SQL boolean over `$1`, the found object's OID (names in it quoted as literals), run
    /// when the tables it reads exist.
    struct Evidence: Sendable, Hashable {
        var sql: String
        var requires: [String] = []
    }

    /// The prefix of every mark.
    static let markPrefix = "heatmapkit"

    /// The name for messages: a function's signature, a trigger's `name on table`.
    var shownName: String {
        table.map { "\(Self.quoted(name)) on \($0)" } ?? (kind == .server ? Self.quoted(name) : name)
    }

    /// The name in SQL: quoted for a trigger or a server.
    var sqlName: String { kind == .trigger || kind == .server ? Self.quoted(name) : name }

    /// `identifier` quoted as one identifier (dots and all).
    static func quoted(_ identifier: String) -> String { "\"" + identifier.replacing("\"", with: "\"\"") + "\"" }

    /// `text` as an SQL string literal.
    static func literal(_ text: String) -> String { "'" + text.replacing("'", with: "''") + "'" }

    /// SQL for the object's OID, `NULL` when there is none.
    var oidExpression: String {
        switch kind {
        case .table, .index, .view, .foreignTable: return "to_regclass(\(Self.literal(name)))"
        case .function: return "to_regprocedure(\(Self.literal(name)))"
        case .trigger:
            return "(SELECT oid FROM pg_trigger WHERE tgrelid = to_regclass(\(Self.literal(table ?? ""))) "
                + "AND tgname = \(Self.literal(name)))"
        case .server: return "(SELECT oid FROM pg_foreign_server WHERE srvname = \(Self.literal(name)))"
        }
    }

    /// The catalog `obj_description` reads its comment from.
    var catalog: String {
        switch kind {
        case .table, .index, .view, .foreignTable: return "pg_class"
        case .function: return "pg_proc"
        case .trigger: return "pg_trigger"
        case .server: return "pg_foreign_server"
        }
    }

    /// The statement that marks it, once it exists, unless it carries a comment already (a
    /// user's own comment on an object is kept) or the user may not comment on it (an object
    /// of the database shared with another owner).
    var markStatement: String {
        let target = kind == .trigger ? "\(sqlName) ON \(table ?? "")" : sqlName
        let comment =
            "COMMENT ON \(kind.commentKind) \(target) IS \(Self.literal("\(Self.markPrefix): \(what)"))"
        let body = """
            BEGIN
                IF \(oidExpression) IS NOT NULL AND obj_description(\(oidExpression), '\(catalog)') IS NULL THEN
                    \(comment);
                END IF;
            EXCEPTION WHEN insufficient_privilege THEN NULL;
            END
            """
        let tag = DollarQuote.tag("heatmap_mark", absentFrom: body)
        return "DO \(tag)\(body)\(tag)"
    }
}

/// Dollar-quote delimiters for text that HeatmapKit puts inside a dollar-quoted body.
enum DollarQuote {
    /// `$name$`, or `$name_N$`, one that `text` does not hold: the body then ends exactly
    /// where `text` does.
    static func tag(_ name: String, absentFrom text: String) -> String {
        var tag = "$\(name)$"
        var number = 0
        while text.contains(tag) {
            number += 1
            tag = "$\(name)_\(number)$"
        }
        return tag
    }
}

extension MadeObject {
    /// What was found under an object's name.
    enum Finding: Sendable, Hashable {
        /// Nothing: `import` makes it.
        case absent
        /// HeatmapKit's (marked, or recognised as an earlier version's).
        case ours
        /// Someone else's: what it is (`a view`, `a trigger calling audit()`, …).
        case foreign(String)
    }

    /// What is under the object's name on `connection`.
    func find(on connection: PostgresConnection) throws(PostgresError) -> Finding {
        let found = try connection.execute(
            """
            SELECT o.oid, obj_description(o.oid, '\(catalog)'), \
            (SELECT relkind::text FROM pg_class WHERE oid = o.oid AND '\(catalog)' = 'pg_class'), \
            (SELECT tgfoid::regprocedure::text FROM pg_trigger WHERE oid = o.oid AND '\(catalog)' = 'pg_trigger') \
            FROM (SELECT (\(oidExpression))::oid AS oid) o WHERE o.oid IS NOT NULL
            """)
        guard found.rowCount == 1, let oid = found.text(0, 0) else { return .absent }
        if let relkind = found.text(0, 2), !kind.relationKinds.contains(relkind) {
            return .foreign(Self.relationKindNames[relkind].map { "a \($0)" } ?? "a relation of another kind")
        }
        if found.text(0, 1)?.hasPrefix(Self.markPrefix) == true { return .ours }
        evidence: for evidence in recognised {
            for table in evidence.requires
            where try connection.execute("SELECT to_regclass($1) IS NULL", [table]).text(0, 0) == "t" {
                continue evidence
            }
            let legacy = try connection.execute("SELECT coalesce((\(evidence.sql)), false)", [oid])
            if legacy.text(0, 0) == "t" { return .ours }
        }
        if let function = found.text(0, 3) { return .foreign("a trigger calling \(function)") }
        if let relkind = found.text(0, 2) {
            let columns = try connection.execute(
                """
                SELECT string_agg(attname, ', ' ORDER BY attnum) FROM pg_attribute \
                WHERE attrelid = $1::oid AND attnum > 0 AND NOT attisdropped
                """, [oid]
            ).text(0, 0)
            let kind = Self.relationKindNames[relkind] ?? "relation"
            return .foreign(columns.map { "a \(kind) with columns \($0)" } ?? "a \(kind) without columns")
        }
        return .foreign("not marked as HeatmapKit's, nor one an earlier version made")
    }

    /// The words for a relation's kind.
    static let relationKindNames = [
        "r": "table", "p": "partitioned table", "i": "index", "I": "partitioned index", "v": "view",
        "m": "materialized view", "f": "foreign table", "S": "sequence", "c": "composite type", "t": "TOAST table",
    ]

    /// Finds every object of `objects` on `connection`, failing at the first that is someone
    /// else's, before anything is written; returns those found (HeatmapKit's).
    ///
    /// - Throws: ``PostgresError/notMadeByHeatmapKit(kind:name:found:)``.
    @discardableResult
    static func check(_ objects: [MadeObject], on connection: PostgresConnection) throws(PostgresError)
        -> [MadeObject]
    {
        var ours: [MadeObject] = []
        for object in objects {
            switch try object.find(on: connection) {
            case .absent: continue
            case .ours: ours.append(object)
            case .foreign(let found):
                throw .notMadeByHeatmapKit(kind: object.kind.rawValue, name: object.shownName, found: found)
            }
        }
        return ours
    }
}

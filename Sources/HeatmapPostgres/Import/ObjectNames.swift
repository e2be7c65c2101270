/// The names HeatmapKit derives from a table's name (`T_cells`, `T_key`, the triggers `T_changes`,
/// `T_log_insert` … `T_summaries_truncate`, a sharded table's `T_shardN`, `T_cells_shardN`,
/// `T_log_shardN`, `T_log_shards`, a shard's `T_heatmap_log`), each at most 63 bytes, the most
/// PostgreSQL keeps of a name (NAMEDATALEN − 1, counted in bytes of the database's encoding): it
/// cuts longer ones, so that two of them could end alike and one replace the other.
///
/// A table whose name plus the longest suffix (`_summaries_truncate`, 19 bytes) fits keeps the
/// names derived as before (`T` + suffix). A longer one gets them all from one shorter prefix,
/// the name cut to 35 bytes (at a character's end) and `_` and 8 hexadecimal digits of a hash of
/// the whole name (``NameHash``): short, distinct for names that differ anywhere, and the same for
/// every suffix, so that triggers of one event still fire in the order of their suffixes (the
/// counter's `_changes` before `_log_` and `_summaries_`). Readers look for a table imported
/// before by the names of then (``legacy(_:)``) when the new one is not there.
struct ObjectNames: Sendable, Hashable {
    /// The table's schema as given (`nil` for a name without one), and its name.
    let schema: String?
    let base: String
    /// What every derived name starts with.
    let prefix: String

    /// The longest suffix (bytes).
    static let longestSuffix = "_summaries_truncate".utf8.count
    /// The bytes of the hash part, `_` and 8 hexadecimal digits.
    static let hashLength = 9
    /// The most bytes PostgreSQL keeps of a name.
    static let maximumBytes = 63

    /// The names of `table` (`schema.table` or `table`, as `--table` takes it) in a database
    /// of `encoding`.
    init(table: String, encoding: ServerEncoding) {
        let parts = table.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        schema = parts.count > 1 ? parts.dropLast().joined(separator: ".") : nil
        base = parts.last ?? table
        prefix = Self.prefix(of: base, encoding: encoding)
    }

    /// `base` when it and the longest suffix fit in a name, else its first 35 bytes, `_` and a
    /// hash of it.
    static func prefix(of base: String, encoding: ServerEncoding) -> String {
        guard encoding.bytes(base) + longestSuffix > maximumBytes else { return base }
        return encoding.clipped(base, to: maximumBytes - longestSuffix - hashLength) + "_"
            + NameHash.hex(base, digits: 8)
    }

    /// A derived name without schema: the prefix and `suffix` (`_cells`).
    func name(_ suffix: String) -> String { prefix + suffix }

    /// A derived name in the table's schema, unquoted (`schema.T_cells`).
    func qualified(_ suffix: String) -> String { (schema.map { $0 + "." } ?? "") + name(suffix) }

    /// A derived name in the table's schema, quoted as an identifier.
    func quoted(_ suffix: String) -> String {
        (schema.map { PostgresConnection.quoted(identifier: $0) + "." } ?? "")
            + PostgresConnection.quoted(identifier: name(suffix))
    }

    /// The name as HeatmapKit derived it before, quoted (PostgreSQL cut it to 63 bytes itself,
    /// when reading it too).
    func legacy(_ suffix: String) -> String {
        (schema.map { PostgresConnection.quoted(identifier: $0) + "." } ?? "")
            + PostgresConnection.quoted(identifier: base + suffix)
    }

    /// Whether the names differ from those derived before.
    var isShortened: Bool { prefix != base }

    /// The schema and name of a sharded table's foreign server `N` (one of the database, not of
    /// a schema: `schema_T_shardN`), from the same kind of prefix.
    static func server(of table: String, shard: Int, encoding: ServerEncoding) -> String {
        let joined = table.split(separator: ".", omittingEmptySubsequences: false).joined(separator: "_")
        return prefix(of: joined, encoding: encoding) + "_shard\(shard)"
    }
}

/// A database's encoding (`server_encoding`), for the bytes a name takes in it.
struct ServerEncoding: Sendable, Hashable {
    /// Its name as PostgreSQL reports it (`UTF8`, `LATIN1`, `EUC_JP`, …).
    let name: String

    /// The encodings of one byte a character.
    static let singleByte: Set<String> = [
        "LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN6", "LATIN7", "LATIN8", "LATIN9", "LATIN10",
        "ISO_8859_5", "ISO_8859_6", "ISO_8859_7", "ISO_8859_8", "KOI8R", "KOI8U", "WIN866", "WIN874", "WIN1250",
        "WIN1251", "WIN1252", "WIN1253", "WIN1254", "WIN1255", "WIN1256", "WIN1257", "WIN1258",
    ]

    /// The bytes `character` takes: its UTF-8 bytes in `UTF8` and `SQL_ASCII` (which keeps the
    /// client's bytes), 1 in an encoding of one byte a character, and in the others (EUC_*,
    /// MULE_INTERNAL) 1 for ASCII and 4, the most any takes, for the rest.
    func bytes(_ character: Character) -> Int {
        if name == "UTF8" || name == "SQL_ASCII" { return character.utf8.count }
        if Self.singleByte.contains(name) { return 1 }
        return character.isASCII ? 1 : 4
    }

    /// The bytes `text` takes.
    func bytes(_ text: String) -> Int { text.reduce(0) { $0 + bytes($1) } }

    /// The longest start of `text` of at most `limit` bytes, ending at a character's end.
    func clipped(_ text: String, to limit: Int) -> String {
        var out = ""
        var used = 0
        for character in text {
            let size = bytes(character)
            guard used + size <= limit else { break }
            out.append(character)
            used += size
        }
        return out
    }
}

extension ObjectNames {
    /// Refuses a table name that PostgreSQL would cut: a part (schema or table) of more than
    /// 63 bytes in the database's encoding.
    ///
    /// - Throws: ``PostgresError/nameTooLong(name:bytes:)``.
    static func check(_ table: String, on connection: PostgresConnection) throws(PostgresError) {
        for part in table.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
            let found = try connection.execute(
                "SELECT octet_length($1::text), $1::text::name::text = $1::text", [part])
            if found.text(0, 1) != "t" {
                throw .nameTooLong(name: part, bytes: found.text(0, 0).flatMap { Int($0) } ?? part.utf8.count)
            }
        }
    }
}

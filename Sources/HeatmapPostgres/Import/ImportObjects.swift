/// Every object `import` makes, as ``MadeObject``s to check before writing and mark after:
/// those shared by every table of a database, those of one table (on one server or a shard),
/// those of a sharded table's coordinator, and those `import --attach` adds. How an unmarked one
/// made by an earlier version is recognised (see ``MadeObject/recognised``):
///
/// - a shared table (`heatmap_versions`, `heatmap_summaries`, `heatmap_changes`,
///   `heatmap_change_logs`, `heatmap_maxima`, `heatmap_shard_logs`): exactly its columns, names
///   and types in order; the index `heatmap_changes_version`: an index on `heatmap_changes`;
/// - a function: HeatmapKit's signature, language and result type, and a piece of its body
///   (`4294967296` in `heatmap_unit_x`, `heatmap_versions` in `heatmap_count_change()`, …);
/// - the table `T`: exactly `import`'s columns (`lat`, `lng` double precision, `weight` real,
///   `x`, `y`, `key` bigint) and a trigger calling `heatmap_fill_position()`, or, partitioned
///   (a sharded table's coordinator), a trigger calling `heatmap_count_change()` and
///   partitions all named `T_shardN`;
/// - `T_cells`: exactly the summaries' columns (with or without `rows`), and a trigger on `T`
///   calling `heatmap_cells_change()`, or one calling `heatmap_fill_position()` and a row of
///   `heatmap_summaries` for `T` (a row alone outlives a dropped `T`: it is no evidence), or,
///   partitioned (a coordinator's), partitions all named `T_cells_shardN`;
/// - a trigger of `T`'s: it calls one of HeatmapKit's trigger functions;
/// - the index `T_key`: an index on `T`;
/// - a shard's foreign server `T_shardN`: `postgres_fdw`, and no foreign table on it but
///   `T_shardN`, `T_cells_shardN`, `T_log_shardN`; those foreign tables: on that server;
/// - a shard's view of its log for `--attach` (`R_heatmap_log`): a view reading `heatmap_changes`.
enum ImportObjects {
    /// The columns of `import`'s table, as `format_type` spells them.
    static let pointColumns = "lat double precision, lng double precision, weight real, x bigint, y bigint, key bigint"
    /// The columns of the cell summaries, now and before `rows` was added.
    static let cellColumns = [
        "level smallint, key bigint, x bigint, y bigint, weight double precision, rows bigint",
        "level smallint, key bigint, x bigint, y bigint, weight double precision",
    ]
    /// The columns of the change log, and of a shard's log read by the coordinator.
    static let changeColumns =
        "table_name text, version bigint, removed boolean, level smallint, x bigint, y bigint"

    /// Evidence that the relation `$1` has exactly one of `shapes`' columns.
    static func columns(_ shapes: [String]) -> String {
        """
        (SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum) \
        FROM pg_attribute WHERE attrelid = $1::oid AND attnum > 0 AND NOT attisdropped) \
        IN (\(shapes.map(MadeObject.literal).joined(separator: ", ")))
        """
    }

    /// A shared table of exactly `columns`.
    static func sharedTable(_ name: String, _ columns: String, what: String) -> MadeObject {
        MadeObject(
            kind: .table, name: name, what: what, recognised: [MadeObject.Evidence(sql: Self.columns([columns]))])
    }

    /// A function of `signature` (as `to_regprocedure` reads it) in `language`, returning
    /// `result` (as `pg_get_function_result` spells it), whose body holds `fingerprint`.
    static func function(_ signature: String, _ language: String, _ result: String, _ fingerprint: String)
        -> MadeObject
    {
        MadeObject(
            kind: .function, name: signature, what: "function of heatmap import",
            recognised: [
                MadeObject.Evidence(
                    sql: """
                        (SELECT l.lanname = \(MadeObject.literal(language)) \
                        AND pg_get_function_result(p.oid) = \(MadeObject.literal(result)) \
                        AND strpos(p.prosrc, \(MadeObject.literal(fingerprint))) > 0 \
                        FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.oid = $1::oid)
                        """)
            ])
    }

    /// The SQL functions of positions (``PositionSQL``).
    static let positionFunctions: [MadeObject] =
        [
            function("heatmap_unit_x(float8)", "sql", "bigint", "4294967296"),
            function("heatmap_mercator_units(float8)", "sql", "bigint", "ln("),
            function("heatmap_unit_y(float8)", "sql", "bigint", "heatmap_mercator_units"),
        ] + [16, 8, 4, 2, 1].map { function("heatmap_spread\($0)(int8)", "sql", "bigint", "(v << \($0))") } + [
            function("heatmap_spread(int8)", "sql", "bigint", "heatmap_spread1("),
            function("heatmap_key(float8, float8)", "sql", "bigint", "heatmap_spread("),
        ]

    /// PostGIS's position functions (``GeometrySQL``).
    static let geometryFunctions = [
        function("heatmap_point_lat(geometry)", "sql", "double precision", "ST_Y(g)"),
        function("heatmap_point_lng(geometry)", "sql", "double precision", "ST_X(g)"),
    ]

    /// The change counter's table and function.
    static let counter = [
        sharedTable("heatmap_versions", "table_name text, version bigint", what: "change counts of tables"),
        function("heatmap_count_change()", "plpgsql", "trigger", "heatmap_versions"),
    ]

    /// The change log's tables, index and function.
    static let changeLog = [
        sharedTable("heatmap_changes", changeColumns, what: "change log of tables"),
        MadeObject(
            kind: .index, name: "heatmap_changes_version", what: "index of the change log",
            recognised: [
                MadeObject.Evidence(
                    sql: "(SELECT indrelid = to_regclass('heatmap_changes') FROM pg_index WHERE indexrelid = $1::oid)")
            ]),
        sharedTable("heatmap_change_logs", "table_name text, complete_after bigint", what: "change logs' starts"),
        function("heatmap_log_change()", "plpgsql", "trigger", "heatmap_changes"),
    ]

    /// The trigger function that fills `x`, `y` and `key`.
    static let fillPosition = function("heatmap_fill_position()", "plpgsql", "trigger", "heatmap_unit_x")

    /// The summaries' table and function, the trigger function filling positions, the M(z) store.
    static let tables = [
        sharedTable(
            "heatmap_summaries", "table_name text, version bigint, finest smallint", what: "cell summaries' state"),
        function("heatmap_cells_change()", "plpgsql", "trigger", "heatmap_summaries"),
        sharedTable("heatmap_time_summaries", TimeSummaries.stateColumns, what: "time summaries' state"),
        fillPosition,
        sharedTable(
            "heatmap_maxima",
            "table_name text, table_oid oid, weight text, zoom smallint, scale smallint, reach integer, "
                + "version bigint, value real, place_x bigint, place_y bigint, place_width bigint, "
                + "place_height bigint, found_at timestamp with time zone",
            what: "M(z) values found"),
    ]

    /// What a sharded table's coordinator gathers the shards' logs with.
    static let gathering = [
        sharedTable("heatmap_shard_logs", "table_name text, log text, seen bigint", what: "shards' logs gathered"),
        function("heatmap_gather_changes()", "plpgsql", "trigger", "heatmap_shard_logs"),
        function("heatmap_gather(regclass)", "plpgsql", "boolean", "heatmap_shard_logs"),
    ]

    /// Every object shared by the tables `import` makes on one server.
    static let shared = positionFunctions + counter + changeLog + tables

    /// Those a shard of a sharded table holds (no M(z) store: the coordinator keeps M(z)).
    static let sharedOnShard = shared.filter { $0.name != "heatmap_maxima" }

    /// HeatmapKit's trigger functions, by name.
    static let triggerFunctions = [
        "heatmap_fill_position", "heatmap_count_change", "heatmap_log_change", "heatmap_cells_change",
        "heatmap_gather_changes",
    ]

    /// A trigger `name` (the derived suffix's) on `table`, recognised by its function.
    static func trigger(_ name: String, on table: String, what: String) -> MadeObject {
        MadeObject(
            kind: .trigger, name: name, table: table, what: what,
            recognised: [
                MadeObject.Evidence(
                    sql: """
                        (SELECT p.proname IN (\(triggerFunctions.map(MadeObject.literal).joined(separator: ", "))) \
                        FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid WHERE t.oid = $1::oid)
                        """)
            ])
    }

    /// The table `T` itself (checked before `--replace` drops it).
    static func table(_ names: ObjectNames, quoted: String) -> MadeObject {
        let partitions = MadeObject.literal(names.name("_shard"))
        return MadeObject(
            kind: .table, name: quoted, what: "table of points made by heatmap import",
            recognised: [
                MadeObject.Evidence(
                    sql: """
                        \(columns([pointColumns])) AND (EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = $1::oid \
                        AND tgfoid = to_regprocedure('heatmap_fill_position()')) OR ((SELECT relkind FROM pg_class \
                        WHERE oid = $1::oid) = 'p' AND EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = $1::oid \
                        AND tgfoid = to_regprocedure('heatmap_count_change()')) AND NOT EXISTS (SELECT 1 FROM \
                        pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::oid AND NOT \
                        (starts_with(c.relname, \(partitions)) AND substr(c.relname, length(\(partitions)) + 1) \
                        ~ '^[0-9]+$'))))
                        """)
            ])
    }

    /// The summaries' table of `T`.
    static func cells(_ names: ObjectNames, quoted: String) -> MadeObject {
        let base = MadeObject.literal("." + names.base)
        let partitions = MadeObject.literal(names.name("_cells_shard"))
        return MadeObject(
            kind: .table, name: names.quoted("_cells"), what: "cell summaries of \(names.base)",
            recognised: [
                MadeObject.Evidence(
                    sql: """
                        \(columns(cellColumns)) AND EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = \
                        to_regclass(\(MadeObject.literal(quoted))) AND tgfoid = to_regprocedure('heatmap_cells_change()'))
                        """),
                MadeObject.Evidence(
                    sql: """
                        \(columns(cellColumns)) AND EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = \
                        to_regclass(\(MadeObject.literal(quoted))) AND tgfoid = to_regprocedure('heatmap_fill_position()')) \
                        AND EXISTS (SELECT 1 FROM heatmap_summaries s, pg_class c \
                        JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = $1::oid \
                        AND s.table_name = n.nspname || \(base))
                        """,
                    requires: ["heatmap_summaries"]),
                MadeObject.Evidence(
                    sql: """
                        \(columns(cellColumns)) AND (SELECT relkind FROM pg_class WHERE oid = $1::oid) = 'p' \
                        AND NOT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid \
                        WHERE i.inhparent = $1::oid AND NOT (starts_with(c.relname, \(partitions)) \
                        AND substr(c.relname, length(\(partitions)) + 1) ~ '^[0-9]+$'))
                        """),
            ])
    }

    /// The objects of `T` on one server (or a shard): `T_cells`, `T_key`, and the triggers.
    static func perTable(_ names: ObjectNames, quoted: String) -> [MadeObject] {
        var objects = [
            cells(names, quoted: quoted),
            MadeObject(
                kind: .index, name: names.quoted("_key"), what: "key index of \(names.base)",
                recognised: [
                    MadeObject.Evidence(
                        sql: """
                            (SELECT indrelid = to_regclass(\(MadeObject.literal(quoted))) FROM pg_index \
                            WHERE indexrelid = $1::oid)
                            """)
                ]),
        ]
        // The time summaries and the time's B-tree (of `--time`), known by their marks alone.
        objects.append(
            MadeObject(kind: .table, name: names.quoted("_tcells"), what: "time summaries of \(names.base)"))
        objects.append(MadeObject(kind: .index, name: names.quoted("_time"), what: "time index of \(names.base)"))
        for suffix in ["_position", "_moved", "_changes"] + StatementTriggers.suffixes(infix: "log")
            + StatementTriggers.suffixes(infix: "summaries")
        {
            objects.append(trigger(names.name(suffix), on: quoted, what: "trigger of heatmap import"))
        }
        return objects
    }

    /// The objects of a sharded table's coordinator, over `shards` shards: the foreign servers,
    /// the partitions, `T_cells` and its partitions, the logs' foreign tables and the triggers.
    static func coordinator(_ names: ObjectNames, quoted: String, table: String, shards: Int, encoding: ServerEncoding)
        -> [MadeObject]
    {
        var objects = [cells(names, quoted: quoted)]
        for index in 1...max(shards, 1) {
            let server = ObjectNames.server(of: table, shard: index, encoding: encoding)
            let ours = ["_shard\(index)", "_cells_shard\(index)", "_log_shard\(index)"].map {
                MadeObject.literal(names.name($0))
            }
            objects.append(
                MadeObject(
                    kind: .server, name: server, what: "shard \(index) of \(names.base)",
                    recognised: [
                        MadeObject.Evidence(
                            sql: """
                                (SELECT w.fdwname = 'postgres_fdw' FROM pg_foreign_server s \
                                JOIN pg_foreign_data_wrapper w ON w.oid = s.srvfdw WHERE s.oid = $1::oid) \
                                AND NOT EXISTS (SELECT 1 FROM pg_foreign_table f JOIN pg_class c ON c.oid = f.ftrelid \
                                WHERE f.ftserver = $1::oid AND c.relname NOT IN (\(ours.joined(separator: ", "))))
                                """)
                    ]))
            for suffix in ["_shard\(index)", "_cells_shard\(index)", "_log_shard\(index)"] {
                objects.append(
                    foreignTable(names.quoted(suffix), server: server, what: "shard \(index) of \(names.base)"))
            }
        }
        objects += [
            trigger(names.name("_changes"), on: quoted, what: "trigger of heatmap import"),
            trigger(names.name("_log_shards"), on: quoted, what: "trigger of heatmap import"),
        ]
        return objects
    }

    /// A foreign table on `server`, recognised by it.
    static func foreignTable(_ quoted: String, server: String, what: String) -> MadeObject {
        MadeObject(
            kind: .foreignTable, name: quoted, what: what,
            recognised: [
                MadeObject.Evidence(
                    sql: """
                        (SELECT s.srvname = \(MadeObject.literal(server)) FROM pg_foreign_table f \
                        JOIN pg_foreign_server s ON s.oid = f.ftserver WHERE f.ftrelid = $1::oid)
                        """)
            ])
    }

    /// A shard's view of its log for `--attach`, in `schema`.
    static func logView(_ quoted: String, what: String) -> MadeObject {
        MadeObject(
            kind: .view, name: quoted, what: what,
            recognised: [MadeObject.Evidence(sql: "strpos(pg_get_viewdef($1::oid), 'heatmap_changes') > 0")])
    }
}

/// Positions from a PostGIS point geometry in EPSG:4326: SQL functions that answer a point's
/// latitude (`ST_Y`) and longitude (`ST_X`), the doubles PostGIS stores, so that
/// ``PositionSQL``'s functions compute from them the units and key the in-memory index
/// computes from the same coordinates. A geometry that is not a usable point answers NULL and
/// draws nothing (as a NULL latitude does), and ``PostgresSource/summary()`` counts each kind.
enum GeometrySQL {
    /// The condition under which a row's geometry `g` is a point PostGIS can give coordinates
    /// of: EPSG:4326, a point (2D, Z or M), not empty.
    static let point = "ST_SRID(g) = 4326 AND ST_GeometryType(g) = 'ST_Point' AND NOT ST_IsEmpty(g)"
    /// The condition, for such a point, under which its coordinates are usable: the latitude
    /// within -90...90 and the longitude finite (as the readers check them).
    static let inRange =
        "ST_Y(g) BETWEEN -90::float8 AND 90::float8 AND ST_X(g) > '-Infinity'::float8 AND ST_X(g) < 'Infinity'::float8"

    /// `heatmap_point_lat(geometry)` and `heatmap_point_lng(geometry)`, immutable so that an
    /// expression index may use them.
    static let functions: [String] = [
        function("heatmap_point_lat", coordinate: "ST_Y(g)"),
        function("heatmap_point_lng", coordinate: "ST_X(g)"),
    ]

    private static func function(_ name: String, coordinate: String) -> String {
        "CREATE OR REPLACE FUNCTION \(name)(g geometry) RETURNS float8 LANGUAGE sql IMMUTABLE "
            + "PARALLEL SAFE AS $heatmap$ SELECT CASE WHEN \(point) THEN "
            + "CASE WHEN \(inRange) THEN \(coordinate) END END $heatmap$"
    }

    /// Checks that `column` (unquoted) of `table` (quoted) is a PostGIS geometry declared as
    /// points in EPSG:4326 or left open (`geometry`, whose rows are then checked one by one).
    ///
    /// - Throws: ``PostgresError/geometryUnusable(table:column:reason:)`` naming what it holds.
    static func check(column: String, of table: PostgresTable, quoted: String, on connection: PostgresConnection)
        throws(PostgresError)
    {
        let type = try connection.execute(
            """
            SELECT t.typname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a \
            JOIN pg_type t ON t.oid = a.atttypid WHERE a.attrelid = to_regclass($1) AND a.attname = $2 \
            AND a.attnum > 0 AND NOT a.attisdropped
            """, [quoted, column])
        guard type.rowCount == 1 else { throw .columnMissing(table: table.name, column: column) }
        let declared = type.text(0, 1) ?? "?"
        guard type.text(0, 0) == "geometry" else {
            throw .geometryUnusable(
                table: table.name, column: column,
                reason: "it is of type \(declared), not a PostGIS geometry (--geometry needs geometry(Point, 4326))")
        }
        let modifier = try connection.execute(
            """
            SELECT postgis_typmod_srid(a.atttypmod), postgis_typmod_type(a.atttypmod) FROM pg_attribute a \
            WHERE a.attrelid = to_regclass($1) AND a.attname = $2
            """, [quoted, column])
        let srid = modifier.text(0, 0) ?? "0"
        let kind = modifier.text(0, 1) ?? "Geometry"
        guard kind == "Geometry" || kind.hasPrefix("Point") else {
            throw .geometryUnusable(
                table: table.name, column: column,
                reason: "it is declared \(declared): \(kind), not points (use ST_Centroid or ST_PointOnSurface)")
        }
        if srid != "0", srid != "4326" {
            let q = PostgresConnection.quoted(identifier:)
            throw .geometryUnusable(
                table: table.name, column: column,
                reason:
                    "it is declared \(declared), SRID \(srid), not 4326 (longitude, latitude in degrees); add a "
                    + "column in 4326, for example ALTER TABLE \(quoted) ADD COLUMN \(q(column + "_4326")) "
                    + "geometry(Point, 4326) GENERATED ALWAYS AS (ST_Transform(\(q(column)), 4326)) STORED")
        }
    }
}

/// Why rows of a geometry column draw nothing, as `heatmap info` reports them.
package struct PostgresGeometryCounts: Sendable, Hashable, Codable {
    /// Rows whose geometry is NULL.
    package var null: Int
    /// Rows whose geometry has an SRID other than 4326.
    package var otherSRID: Int
    /// Rows whose geometry is not a point (in 4326).
    package var notPoint: Int
    /// Rows whose point is empty (`POINT EMPTY`).
    package var empty: Int
    /// Rows whose point's latitude is outside -90...90 or longitude not finite.
    package var outOfRange: Int
}

extension PostgresSource {
    /// The rows of the geometry column that draw nothing, by reason; `nil` without one.
    func geometryCounts() throws(PostgresError) -> PostgresGeometryCounts? {
        guard let g = layout.geometry else { return nil }
        let filter = layout.filter.map { "WHERE (\($0))" } ?? ""
        let sql = """
            SELECT count(*) FILTER (WHERE \(g) IS NULL), count(*) FILTER (WHERE ST_SRID(\(g)) <> 4326), \
            count(*) FILTER (WHERE ST_SRID(\(g)) = 4326 AND ST_GeometryType(\(g)) <> 'ST_Point'), \
            count(*) FILTER (WHERE ST_SRID(\(g)) = 4326 AND ST_GeometryType(\(g)) = 'ST_Point' AND ST_IsEmpty(\(g))), \
            count(*) FILTER (WHERE \(g) IS NOT NULL AND heatmap_point_lat(\(g)) IS NULL) FROM \(layout.table) \(filter)
            """
        let result = try pool.with { (connection) throws(PostgresError) in try connection.execute(sql) }
        func count(_ column: Int) -> Int { Int(result.text(0, column) ?? "") ?? 0 }
        let unusable = count(4)
        let kinds = count(1) + count(2) + count(3)
        return PostgresGeometryCounts(
            null: count(0), otherSRID: count(1), notPoint: count(2), empty: count(3),
            outOfRange: max(0, unusable - kinds))
    }
}

extension PostgresSource {
    /// How to read a table's points from its geometry `column`: positions computed in SQL from
    /// `ST_Y` and `ST_X`, fast with an index on their key.
    static func geometryLayout(
        of table: PostgresTable, column: String, weight: String, on connection: PostgresConnection
    ) throws(PostgresError) -> TableLayout {
        let quoted = PostgresConnection.quoted(identifier: table.name)
        let postgis = try connection.execute("SELECT to_regtype('geometry') IS NOT NULL")
        guard postgis.text(0, 0) == "t" else {
            throw .geometryUnusable(
                table: table.name, column: column,
                reason:
                    "PostGIS is not installed in this database (CREATE EXTENSION postgis), or not on the search path")
        }
        try GeometrySQL.check(column: column, of: table, quoted: quoted, on: connection)
        try PositionSQL.install(on: connection, extra: GeometrySQL.functions, objects: ImportObjects.geometryFunctions)
        let g = PostgresConnection.quoted(identifier: column)
        let lat = "heatmap_point_lat(\(g))"
        let lng = "heatmap_point_lng(\(g))"
        let key = "heatmap_key(\(lat), \(lng))"
        let indexes = try connection.execute(
            """
            SELECT count(*) FROM pg_index WHERE indrelid = to_regclass($1) AND strpos(pg_get_indexdef(indexrelid), \
            'heatmap_key(heatmap_point_lat(' || quote_ident($2) || '), heatmap_point_lng(' || quote_ident($2) || '))') > 0
            """, [quoted, column])
        var layout = TableLayout(
            table: quoted, x: "heatmap_unit_x(\(lng))", y: "heatmap_unit_y(\(lat))", key: key, weight: weight,
            latitude: lat, longitude: lng, keyIndexed: (indexes.text(0, 0) ?? "0") != "0", imported: false,
            filter: nil)
        layout.geometry = g
        return layout
    }
}

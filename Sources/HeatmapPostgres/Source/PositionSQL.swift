import HeatmapCore
import HeatmapKit

/// SQL functions that compute a point's fixed-point position exactly as
/// ``WebMercator/unitX(longitude:)``, ``WebMercator/unitY(latitude:)`` and the in-memory
/// index's Z-order key do: the same IEEE double operations in the same order (PostgreSQL's
/// `sin`, `ln` and `floor` are the C library's, as Swift's are), so a row falls in the same
/// pixel as the point in memory.
///
/// `heatmap_key(lat, lng)` is the 64-bit Morton key (x in the even bits) stored as the
/// `bigint` of the same bits, so that an aligned quadtree cell below the world is one range.
enum PositionSQL {
    /// `CREATE OR REPLACE FUNCTION` statements for the functions, immutable so that generated
    /// columns and expression indexes may use them.
    static let functions: [String] = {
        let units = "4294967296::float8"
        let fraction = "((lng + 180::float8) / 360::float8)"
        let wrapped = "floor((\(fraction) - floor(\(fraction))) * \(units))"
        let unitX = "CASE WHEN \(wrapped) >= \(units) THEN 0::int8 ELSE greatest(\(wrapped), 0::float8)::int8 END"
        let unitY =
            "least(greatest(floor((0.5::float8 - ln((1::float8 + s) / (1::float8 - s)) / (4::float8 * pi())) * \(units)), 0::float8), 4294967295::float8)::int8"
        let clamped = "least(greatest(lat, -\(maximumLatitude)::float8), \(maximumLatitude)::float8)"
        var statements = [
            function("heatmap_unit_x(lng float8)", body: unitX),
            function("heatmap_mercator_units(s float8)", body: unitY),
            function(
                "heatmap_unit_y(lat float8)", body: "heatmap_mercator_units(sin(\(clamped) * pi() / 180::float8))"),
        ]
        // Spreading a 32-bit value's bits to the even bits, in five steps.
        let masks: [(Int, String)] = [
            (16, "281470681808895"), (8, "71777214294589695"), (4, "1085102592571150095"),
            (2, "3689348814741910323"), (1, "6148914691236517205"),
        ]
        for (shift, mask) in masks {
            statements.append(function("heatmap_spread\(shift)(v int8)", body: "(v | (v << \(shift))) & \(mask)::int8"))
        }
        statements.append(
            function(
                "heatmap_spread(v int8)",
                body: "heatmap_spread1(heatmap_spread2(heatmap_spread4(heatmap_spread8(heatmap_spread16(v)))))"))
        statements.append(
            function(
                "heatmap_key(lat float8, lng float8)",
                body: "heatmap_spread(heatmap_unit_x(lng)) | (heatmap_spread(heatmap_unit_y(lat)) << 1)"))
        return statements
    }()

    /// The latitude limit of the Mercator square, as the core writes it.
    static let maximumLatitude = "\(WebMercator.maximumLatitude)"

    private static func function(_ signature: String, body: String) -> String {
        "CREATE OR REPLACE FUNCTION \(signature) RETURNS int8 LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS "
            + "$heatmap$ SELECT \(body) $heatmap$"
    }

    /// Creates (or replaces, with the same bodies) the functions, in the first schema of the
    /// search path, in a transaction of its own under ``lock`` (two sessions replacing one
    /// function at once collide).
    /// `extra` statements run there too (the objects `import` shares between tables), which
    /// make `objects`. The functions and `objects` are checked first, and a name someone else's
    /// object holds is refused, nothing written (see ``MadeObject``); they are marked after.
    ///
    /// - Throws: ``PostgresError/notMadeByHeatmapKit(kind:name:found:)``, or the server's refusal.
    static func install(on connection: PostgresConnection, extra: [String] = [], objects: [MadeObject] = [])
        throws(PostgresError)
    {
        let made = ImportObjects.positionFunctions + objects.filter { !ImportObjects.positionFunctions.contains($0) }
        try MadeObject.check(made, on: connection)
        try connection.execute("BEGIN")
        do throws(PostgresError) {
            try connection.execute("SELECT pg_advisory_xact_lock($1::int8)", ["\(lock)"])
            for statement in functions + extra { try connection.execute(statement) }
            for object in made { try connection.execute(object.markStatement) }
            try connection.execute("COMMIT")
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The advisory lock that schema changes by HeatmapKit take, one session at a time.
    static let lock: Int64 = 0x4865_6174_6D61_70
}

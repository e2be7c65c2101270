extension PositionSQL {
    /// The weight of a plain table's row as its statements read it: `weight` where the
    /// position is one the readers accept (latitude in -90...90, longitude finite), else NULL,
    /// which every statement leaves out (`weight > 0`) and ``PostgresSource/summary()`` counts
    /// as left out. The position functions alone would clamp a latitude of 91 or NaN to the
    /// pole and wrap a NaN or infinite longitude to 0°, drawing rows that `info` says are left
    /// out. The key is untouched, so the index `CREATE INDEX … (heatmap_key(lat, lng))` still
    /// serves the tiles.
    static func weight(_ weight: String, latitude lat: String, longitude lng: String) -> String {
        "(CASE WHEN \(lat) BETWEEN -90::float8 AND 90::float8 AND \(lng) > '-Infinity'::float8 "
            + "AND \(lng) < 'Infinity'::float8 THEN \(weight) END)"
    }
}

extension PointFileReport {
    /// One line for people when CSV or TSV rows have more fields than the header (read, the
    /// extra fields not): `p.csv: 37 rows have more fields than the header's 4 (first on line
    /// 12); the extra fields are not read`, or `nil` when none has.
    package var longRowSummary: String? {
        guard longRowCount > 0, let line = firstLongRowLine, let header = headerFieldCount else { return nil }
        let name = path == "-" ? "<stdin>" : path
        let rows = longRowCount == 1 ? "1 row has" : "\(longRowCount) rows have"
        let place = longRowCount == 1 ? "line \(line)" : "first on line \(line)"
        return "\(name): \(rows) more fields than the header's \(header) (\(place)); the extra fields are not read"
    }
}

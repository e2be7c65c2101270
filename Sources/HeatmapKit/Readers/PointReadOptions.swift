/// How to read a points file.
public struct PointReadOptions: Sendable, Hashable {
    /// The layout; `nil` (default) detects it from the file name's extension and, failing
    /// that, from the content (`[` or `{` first means JSON; else CSV, or TSV if the header
    /// holds a tab).
    public var format: PointFormat?
    /// The latitude's CSV/TSV column or JSON field; `nil` finds `lat`, `latitude` or `y`.
    public var latitudeColumn: String?
    /// The longitude's CSV/TSV column or JSON field; `nil` finds `lng`, `lon`, `long`,
    /// `longitude` or `x`.
    public var longitudeColumn: String?
    /// The weight's CSV/TSV column, JSON field or GeoJSON property; `nil` finds `weight` or
    /// `intensity` (CSV also `value` or `count`), and points without one weigh 1.
    public var weightColumn: String?
    /// Whether to skip invalid rows (counting them and keeping the first line numbers in the
    /// report) instead of stopping at the first one. Syntax errors always stop.
    public var skipInvalid: Bool
    /// The column, JSON field or GeoJSON property of each point's value, for the mean
    /// (``Aggregate/mean``); `nil` (the default) reads no values. Every point must then have a
    /// finite number there, with the weight's rules for errors and ``skipInvalid``.
    public var valueColumn: String? = nil
    /// The column, JSON field or GeoJSON property of each point's time (`--time COL`): Unix
    /// seconds, a date or an ISO 8601 date-time (see ``TimeParser``), one kind in the whole
    /// column; `nil` (the default) reads no times. With it or ``categoryColumns`` the file
    /// also gives a ``FilterIndex`` (``PointFile/filters``).
    package var timeColumn: String? = nil
    /// The columns, JSON fields or GeoJSON properties of each point's categories
    /// (`--categories COL[,COL...]`), each value text (a number or boolean as written),
    /// dictionary-coded (see ``CategoryDictionary``); empty (the default) reads none.
    package var categoryColumns: [String] = []

    /// Whether time or category columns are read.
    package var readsFilterColumns: Bool { timeColumn != nil || !categoryColumns.isEmpty }

    /// Creates options; the defaults detect everything and stop at the first invalid row.
    public init(
        format: PointFormat? = nil, latitudeColumn: String? = nil, longitudeColumn: String? = nil,
        weightColumn: String? = nil, skipInvalid: Bool = false
    ) {
        self.format = format
        self.latitudeColumn = latitudeColumn
        self.longitudeColumn = longitudeColumn
        self.weightColumn = weightColumn
        self.skipInvalid = skipInvalid
    }
}

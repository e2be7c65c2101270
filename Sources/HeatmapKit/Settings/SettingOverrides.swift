/// Settings given over a layer's own, by any front end: a tile's query, the command's options,
/// a layer of the configuration file. Read through ``SettingsSchema``, so the same values make
/// the same overrides (and the same tiles) wherever they were given; two overrides are equal
/// when their canonical ``key`` is, which keys the caches (``query`` is what URLs echo).
///
/// ```swift
/// let overrides = try SettingOverrides(query: [("radius", "30"), ("max", "4")])
/// overrides.query  // "radius=30&max-intensity=4.0"
/// let settings = overrides.applied(to: layer.settings)
/// ```
package struct SettingOverrides: Sendable, Hashable, CustomStringConvertible {
    /// The values given, in the order of ``SettingsSchema/rows`` (a repeatable row's in the order given).
    private var values: [(row: Int, value: SettingValue)] = []
    /// The canonical query, `radius=30&gradient=fire`: names in the schema's order, values
    /// canonical (`opacity=0.3` for `0.30`), empty when nothing is given.
    package private(set) var query = ""
    /// The caches' key: ``query`` with each value's ``SettingValue/key``, so that
    /// `category=kind:b,a` and `category=kind:a,b` (one set) are one key, while each URL echoes
    /// the order it was given in.
    package private(set) var key = ""

    /// Nothing given.
    package init() {}

    /// Reads a tile's query items: parameters the schema does not know are left alone (and are
    /// not part of the cache key); a later value of a setting replaces an earlier one.
    ///
    /// - Throws: ``SettingError`` naming the parameter and what it takes.
    /// The value of a row that ``SettingRow/takesEncodedQuery`` is as sent, percent-encoded
    /// (``HTTPRequest``'s query items leave it so).
    package init(query items: [(name: String, value: String)]) throws(SettingError) {
        try self.init(items, index: SettingsSchema.index, unknown: { _ in nil })
    }

    /// Reads settings given by name (the command's options without `--`, or configuration keys
    /// with `index` ``SettingsSchema/configIndex``); a name the schema does not know is the
    /// error `unknown` gives (`nil` to leave it alone).
    ///
    /// - Throws: ``SettingError`` for a value the setting does not take, or `unknown`'s.
    package init(
        _ items: [(name: String, value: String)], index: [String: Int],
        unknown: (String) -> SettingError?
    ) throws(SettingError) {
        for (name, text) in items {
            guard let row = index[name] else {
                if let error = unknown(name) { throw error }
                continue
            }
            set(row, try SettingsSchema.rows[row].parse(text))
        }
        try check()
        canonicalize()
    }

    private mutating func set(_ row: Int, _ value: SettingValue) {
        if !SettingsSchema.rows[row].repeatable { values.removeAll { $0.row == row } }
        // A repeatable row's values in the order of their keys, each once: one canonical key.
        guard !values.contains(where: { $0.row == row && $0.value.key == value.key }) else { return }
        let at =
            values.firstIndex { $0.row > row || ($0.row == row && $0.value.key > value.key) } ?? values.endIndex
        values.insert((row, value), at: at)
    }

    /// What no single row can check: zooms in order.
    private func check() throws(SettingError) {
        func zoom(_ name: String) -> Int? {
            guard let row = SettingsSchema.index[name], let value = values.last(where: { $0.row == row }) else {
                return nil
            }
            return Int(value.value.text)
        }
        if let low = zoom("min-zoom-intensity"), let high = zoom("max-zoom-intensity"), low > high {
            throw SettingError("min-zoom-intensity \(low) is above max-zoom-intensity \(high)")
        }
        try SettingsSchema.checkCategories(texts(of: "category"))
    }

    /// Writes ``query`` and ``key`` from the values (one string when they agree, as they mostly do).
    private mutating func canonicalize() {
        func written(_ text: KeyPath<SettingValue, String>) -> String {
            values.map { row, value in
                let schema = SettingsSchema.rows[row]
                let text = value[keyPath: text]
                return schema.name + "=" + (schema.takesEncodedQuery ? text : QueryEncoding.encode(text))
            }.joined(separator: "&")
        }
        query = written(\.text)
        key = values.allSatisfy { $0.value.key == $0.value.text } ? query : written(\.key)
    }

    /// Whether nothing is given.
    package var isEmpty: Bool { values.isEmpty }

    /// These over `base`: every setting given replaces the base's, in the schema's order.
    package func applied(to base: HeatmapSettings) -> HeatmapSettings {
        var settings = base
        for (_, value) in values { value.apply(&settings) }
        return settings
    }

    /// `later` over these: each setting `later` gives replaces these values of it.
    package func merging(_ later: SettingOverrides) -> SettingOverrides {
        var merged = self
        let given = Set(later.values.map(\.row))
        merged.values.removeAll { given.contains($0.row) }
        for (row, value) in later.values {
            let at = merged.values.firstIndex { $0.row > row } ?? merged.values.endIndex
            merged.values.insert((row, value), at: at)
        }
        merged.canonicalize()
        return merged
    }

    /// These overrides with only the settings `names` (the filters a layer keeps, say).
    package func keeping(_ names: Set<String>) -> SettingOverrides {
        var kept = self
        kept.values.removeAll { !names.contains(SettingsSchema.rows[$0.row].name) }
        kept.canonicalize()
        return kept
    }

    /// The canonical value of setting `name` if given (the last, for a repeatable one).
    package func text(of name: String) -> String? {
        guard let row = SettingsSchema.index[name] else { return nil }
        return values.last { $0.row == row }?.value.text
    }

    /// The canonical values of setting `name`, each given (a repeatable one's in canonical order).
    package func texts(of name: String) -> [String] {
        guard let row = SettingsSchema.index[name] else { return [] }
        return values.filter { $0.row == row }.map(\.value.text)
    }

    /// The names given, canonical, in the schema's order.
    package var names: [String] { values.map { SettingsSchema.rows[$0.row].name } }

    /// The canonical query.
    package var description: String { query }

    /// The query's and key's storage, for caches that count their memory.
    package var cacheCost: Int {
        HeapCost.string(query) + (key == query ? 0 : HeapCost.string(key)) + HeapCost.array(values)
    }

    package static func == (a: SettingOverrides, b: SettingOverrides) -> Bool { a.key == b.key }

    package func hash(into hasher: inout Hasher) { hasher.combine(key) }
}

/// Percent-encoding for query values: unreserved characters, `:` and `,` as they are.
package enum QueryEncoding {
    /// `text` with every other byte as `%XX`; with `component`, `:` and `,` too (a column or
    /// value of `category=COL:V1,V2`).
    package static func encode(_ text: String, component: Bool = false) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(Character(Unicode.Scalar(byte)))
            case UInt8(ascii: ":") where !component, UInt8(ascii: ",") where !component:
                out.append(Character(Unicode.Scalar(byte)))
            default:
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}

/// One setting of a heatmap, as every front end spells it: the query parameter `radius=30`, the
/// command's `--radius 30` and the configuration file's `"radius": 30` are all ``name`` (the
/// key in camelCase, ``configKey``), read by the one ``parse(_:)``, with the one message for a
/// value it does not take. ``SettingsSchema/rows`` is the table of them.
package struct SettingRow: Sendable {
    /// How the map page shows the setting.
    package enum Control: Sendable, Hashable {
        /// A slider over `min...max` in steps of `step`, always sent.
        case slider(min: Double, max: Double, step: Double)
        /// A number field, sent when above 0 and at most `max`; empty shows `placeholder`.
        case number(min: Double, max: Double, step: Double, placeholder: String)
        /// A menu of the values; the first entry, `unset`, sends nothing when its label is not nil.
        case choice([String], unset: String?)
        /// The gradient presets' menu (``Gradient/presetNames``), always sent.
        case gradient
    }

    /// The one spelling: the query parameter, the flag after `--`, and in camelCase the key of
    /// the configuration file.
    package let name: String
    /// Older spellings still read, in every front end (`max` for `max-intensity`).
    package let aliases: [String]
    /// What the value looks like in the command's help: `N`, `F`, `G`, `LO,HI`.
    package let placeholder: String
    /// The help text after the flag, its lines joined by `\n`.
    package let help: String
    /// Whether the setting may be given more than once (its values apply in turn).
    package let repeatable: Bool
    /// The map page's control, or `nil` for none.
    package let control: Control?
    /// The control's label on the map page (default: the name).
    package let label: String
    private let parser: @Sendable (String) throws(SettingError) -> SettingValue
    /// Whether the value is read percent-encoded in every front end, split before it is decoded
    /// (`category=type:a%2Cb`, `--category type:a%2Cb`): a query leaves it as sent, and its
    /// canonical text, percent-encoded too, is written to a query as it is.
    package let takesEncodedQuery: Bool

    /// A row; `parse` reads a value as text (a JSON number or array becomes text first).
    package init(
        _ name: String, aliases: [String] = [], placeholder: String, help: String, repeatable: Bool = false,
        control: Control? = nil, label: String? = nil,
        percentEncoded: Bool = false,
        parse: @escaping @Sendable (String) throws(SettingError) -> SettingValue
    ) {
        takesEncodedQuery = percentEncoded
        self.label = label ?? name
        self.name = name
        self.aliases = aliases
        self.placeholder = placeholder
        self.help = help
        self.repeatable = repeatable
        self.control = control
        parser = parse
    }

    /// The key in a configuration file: ``name`` in camelCase (`radius-meters` is `radiusMeters`).
    package var configKey: String { Self.camelCase(name) }

    /// The older spellings as configuration keys.
    package var configAliases: [String] { aliases.map(Self.camelCase) }

    /// The command's option, `--radius`.
    package var flag: String { "--" + name }

    /// Reads a value.
    ///
    /// - Throws: ``SettingError`` with the message every front end gives: `radius "5" is not a
    ///   whole number in 10...50`.
    package func parse(_ text: String) throws(SettingError) -> SettingValue { try parser(text) }

    static func camelCase(_ name: String) -> String {
        let words = name.split(separator: "-")
        return (words.first.map(String.init) ?? "")
            + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined()
    }
}

/// A setting's value as read: its canonical text (for URLs), its key (for cache keys) and what
/// it does to the settings.
package struct SettingValue: Sendable {
    /// The value as the canonical query writes it (`0.3` for `0.30`, `auto`).
    package let text: String
    /// The value as cache keys hold it: ``text``, or for a value whose order does not matter
    /// (the values of `category=kind:b,a`) the one text of all its orders (`kind:a,b`).
    package let key: String
    let apply: @Sendable (inout HeatmapSettings) -> Void

    /// A value whose canonical text is `text` (and key `key`, by default the text), applied by `apply`.
    package init(_ text: String, key: String? = nil, apply: @escaping @Sendable (inout HeatmapSettings) -> Void) {
        self.text = text
        self.key = key ?? text
        self.apply = apply
    }
}

/// A setting's value that cannot be used, in the words every front end shows.
package struct SettingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong: `radius "5" is not a whole number in 10...50`.
    package var description: String

    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}

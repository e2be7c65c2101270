import HeatmapKit

/// The drawing options every command shares, one a setting of ``SettingsSchema``: `--radius`,
/// `--opacity`, `--gradient`, `--max-intensity`, … each the query parameter's name and parser,
/// with the same message for a value it does not take.
enum SettingArguments {
    /// The option names (and older spellings), each taking a value.
    static var valued: Set<String> { SettingsSchema.flagNames }

    /// The lines of `--help` that explain them, from the schema.
    static var help: String { help(SettingsSchema.rows) }

    /// The lines of `--help` that explain `rows`.
    static func help(_ rows: [SettingRow]) -> String {
        rows.map { row in
            let flag = "  \(row.flag) \(row.placeholder)"
            let lines = row.help.split(separator: "\n", omittingEmptySubsequences: false)
            let first = flag + String(repeating: " ", count: max(1, 21 - flag.count)) + (lines.first ?? "")
            return ([first] + lines.dropFirst().map { String(repeating: " ", count: 21) + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// The settings the options give, read as the same query parameters would be.
    ///
    /// - Throws: ``CommandError`` with the setting's message.
    static func overrides(_ list: ArgumentList) throws(CommandError) -> SettingOverrides {
        let names = SettingsSchema.flagNames
        do {
            return try SettingOverrides(
                list.given.filter { names.contains($0.name) }, index: SettingsSchema.index, unknown: { _ in nil })
        } catch {
            throw .usage(error.description)
        }
    }

    /// Applies the options given to `settings`, keeping its values where none is given; the
    /// result is checked by ``HeatmapSettings/validate()`` afterwards.
    ///
    /// - Throws: ``CommandError`` with the setting's message.
    static func apply(_ list: ArgumentList, to settings: inout HeatmapSettings) throws(CommandError) {
        settings = try overrides(list).applied(to: settings)
    }
}

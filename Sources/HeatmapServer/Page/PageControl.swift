import HeatmapKit

/// A control of the map page, made from a row of ``SettingsSchema`` and listed in `/catalog`:
/// the page builds its controls and the tiles' query from these, so a setting with a control
/// in its row shows on the page with nothing else to write.
struct PageControl: Encodable, Sendable {
    /// The query parameter it sets (the setting's name).
    var name: String
    /// `slider`, `number`, `choice` or `gradient`.
    var kind: String
    /// What the page writes beside it.
    var label: String
    var min: Double?
    var max: Double?
    var step: Double?
    /// What an empty number field shows.
    var placeholder: String?
    /// A menu's values (the gradient presets for `gradient`).
    var options: [String]?
    /// A menu's label of its first value, which sends nothing.
    var unset: String?
}

extension SettingsSchema {
    /// The map page's controls, in the schema's order.
    static var pageControls: [PageControl] {
        rows.compactMap { row in
            switch row.control {
            case .slider(let min, let max, let step)?:
                return PageControl(name: row.name, kind: "slider", label: row.label, min: min, max: max, step: step)
            case .number(let min, let max, let step, let placeholder)?:
                return PageControl(
                    name: row.name, kind: "number", label: row.label, min: min, max: max.isFinite ? max : nil,
                    step: step, placeholder: placeholder)
            case .choice(let options, let unset)?:
                return PageControl(name: row.name, kind: "choice", label: row.label, options: options, unset: unset)
            case .gradient?:
                return PageControl(name: row.name, kind: "gradient", label: row.label, options: Gradient.presetNames)
            case nil: return nil
            }
        }
    }
}

import HeatmapKit
import HeatmapServer

extension LayerArguments {
    /// The configuration's `defaults` over Google's with the 160-entry colour map
    /// (``HeatmapSettings/paletteDefault``), their `value` becoming the data option
    /// when `--value` is not given.
    ///
    /// - Throws: ``CommandError`` naming the file, `defaults` and the key at fault.
    mutating func configDefaults(_ config: ServeConfiguration, path: String) throws(CommandError) -> HeatmapSettings {
        guard let defaults = config.defaults else { return .paletteDefault }
        if readOptions.valueColumn == nil { readOptions.valueColumn = defaults.value }
        do {
            return try defaults.applied(to: .paletteDefault)
        } catch {
            throw .usage("\(path): defaults: \(error.description)")
        }
    }

    /// The configuration's layers: URL layers, and file layers with their settings over `base`
    /// (a layer's own keys win) and their own `value` column.
    ///
    /// - Throws: ``CommandError`` naming the file, the layer and the key at fault.
    mutating func addConfigLayers(
        _ config: ServeConfiguration, path: String, base: HeatmapSettings, filters: SettingOverrides
    ) throws(CommandError) {
        for (i, layer) in (config.layers ?? []).enumerated() {
            if let url = layer.url {
                urlLayers.append((layer.name ?? "url", url))
                continue
            }
            guard let file = layer.file else { continue }
            let name = layer.name ?? Self.layerName(file)
            let place = "\(path): layer \(i + 1) (\(name))"
            let settings: HeatmapSettings
            do {
                settings = try layer.settings.applied(to: base)
            } catch {
                throw .usage("\(place): \(error.description)")
            }
            if let value = layer.settings.value { valueColumns[file] = value }
            if settings.aggregate == .mean, readOptions(for: file).valueColumn == nil, !Self.isArchive(file) {
                throw .usage("\(place): aggregate mean needs \"value\", the column or field whose mean to draw")
            }
            files.append((name, file, settings))
            self.filters[name] = filters.merging(((try? layer.settings.overrides()) ?? SettingOverrides()).filters)
        }
    }

}

extension PointReadOptions {
    /// These options with `column` as the value column, or unchanged for `nil`.
    func withValueColumn(_ column: String?) -> PointReadOptions {
        guard let column else { return self }
        var options = self
        options.valueColumn = column
        return options
    }
}

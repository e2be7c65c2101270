import HeatmapServer

extension LayerArguments {
    /// The layer name of a data file given without one (see ``layerName(_:)``), refused at once
    /// with the flag that names it when the file's name is no layer name (`my points.csv`).
    static func defaultLayerName(ofFile path: String) throws(CommandError) -> String {
        let name = layerName(path)
        guard ServedLayer.isValidName(name) else {
            throw .usage(
                "layer name \"\(name)\" (from \(path)) must be 1-64 letters, digits, '-', '_' or '.', not starting "
                    + "with '.': name it with --layer NAME=\(path)")
        }
        return name
    }

    /// The layer name of a table served without `--layer-name`: its own, refused with that flag
    /// when it is no layer name (`"Mixed Case"`).
    static func defaultLayerName(ofTable table: String) throws(CommandError) -> String {
        guard ServedLayer.isValidName(table) else {
            throw .usage(
                "layer name \"\(table)\" (the table's) must be 1-64 letters, digits, '-', '_' or '.', not starting "
                    + "with '.': name it with --layer-name NAME")
        }
        return table
    }
}

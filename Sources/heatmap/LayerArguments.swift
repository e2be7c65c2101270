import Foundation
import HeatmapKit
import HeatmapPostgres
import HeatmapPostgresServer
import HeatmapServer
import HeatmapTiles

/// The layers `serve` serves and `render` renders one of, given the same way: data files
/// (points, or archives `render` wrote), `--layer NAME=FILE|URL_TEMPLATE`, a table
/// (`--postgres`), and the layers and stacks of `--config FILE`; each heatmap with the
/// settings of the flags over the configuration's `defaults`, its own keys winning.
struct LayerArguments {
    /// The options they take, each with a value.
    static var valued: Set<String> {
        DataArguments.valued.union(PostgresArguments.valued).union(SettingArguments.valued).union([
            "config", "upstream-timeout",
        ])
    }

    /// Data files: points, or pre-rendered archives (`isArchive`), with each heatmap's settings.
    var files: [(name: String, file: String, settings: HeatmapSettings)] = []
    /// URL layers: `https://`, `http://` or `file://` templates.
    var urlLayers: [(name: String, template: String)] = []
    /// The configuration's stacks.
    var stacks: [StackDefinition] = []
    /// Seconds a URL layer waits for one tile.
    var upstreamTimeout = 10.0
    /// The data options.
    var readOptions = PointReadOptions()
    /// A table served as a layer.
    var postgres: (connection: ConnectionString, table: PostgresTable, name: String, settings: HeatmapSettings)?
    /// The value column of each data file whose layer in the configuration names one
    /// (`"value"`), instead of `--value`.
    var valueColumns: [String: String] = [:]
    /// The configuration file, when given.
    var config = ServeConfiguration()
    /// The settings of every layer the configuration does not set: its `defaults`, the flags over them.
    var base = HeatmapSettings.paletteDefault
    /// The filters (`datetime`, `category`, `scale-of`) each heatmap is drawn with by layer
    /// name: the `defaults`', the flags' over them, a configuration layer's own keys last.
    var filters: [String: SettingOverrides] = [:]

    /// Reads the layers from `list` (its positionals are data files) and `named`, the values of
    /// `--layer NAME=FILE|URL`.
    ///
    /// - Throws: ``CommandError`` naming the option, file, layer or key at fault.
    init(_ list: ArgumentList, named: [String]) throws(CommandError) {
        readOptions = try DataArguments.options(list)
        if let path = list.text("config") {
            do {
                config = try ServeConfiguration.load(path: path)
            } catch {
                throw CommandError(error.description)
            }
        }
        base = try configDefaults(config, path: list.text("config") ?? "")
        try SettingArguments.apply(list, to: &base)
        let baseFilters = ((try? config.defaults?.overrides()) ?? SettingOverrides()).filters.merging(
            try SettingArguments.overrides(list).filters)
        try KernelArguments.check(base, options: readOptions, postgres: list.text("postgres") != nil)
        do {
            try base.validate()
        } catch {
            throw .usage(error.description)
        }
        for file in list.positionals { files.append((try Self.defaultLayerName(ofFile: file), file, base)) }
        for file in files { filters[file.name] = baseFilters }
        if let (connection, table) = try PostgresArguments.table(list) {
            let name: String
            if let given = list.text("layer-name") {
                name = given
            } else {
                name = try Self.defaultLayerName(ofTable: table.baseName)
            }
            postgres = (connection, table, name, base)
            filters[name] = baseFilters
        }
        for pair in named {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CommandError.usage("--layer expects NAME=FILE, got \"\(pair)\"")
            }
            let (name, value) = (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
            if Self.isURL(value) { urlLayers.append((name, value)) } else { files.append((name, value, base)) }
            filters[name] = baseFilters
        }
        try addConfigLayers(config, path: list.text("config") ?? "", base: base, filters: baseFilters)
        stacks = config.stacks ?? []
        upstreamTimeout = try list.number("upstream-timeout") ?? config.upstreamTimeout ?? upstreamTimeout
        guard upstreamTimeout.isFinite, (0.1...3600).contains(upstreamTimeout) else {
            throw CommandError.usage("--upstream-timeout \(upstreamTimeout) is outside 0.1...3600 seconds")
        }
    }

    /// The names of every layer and stack, in the order `serve` lists them.
    var names: [String] {
        files.map(\.name) + [postgres?.name].compactMap { $0 } + urlLayers.map(\.name) + stacks.map(\.name)
    }

    /// Reads the files and opens the archives: the heatmaps first, then the archives, then the
    /// URL layers (the table's layer is made apart, see ``ServeCommand/tableLayer(_:statementTimeout:valueColumn:)``).
    ///
    /// - Throws: ``LayerLoadError`` for a file that does not read, ``CommandError`` for a URL
    ///   template without `{z}`, `{x}` and `{y}`, a bad name or filters the data cannot take.
    func fileLayers() throws -> (heatmaps: [ServedLayer], archives: [StoredLayer], hosted: [HostedLayer]) {
        var served: [ServedLayer] = []
        var stored: [StoredLayer] = []
        for layer in files {
            if Self.isArchive(layer.file) {
                stored.append(try StoredLayer(name: layer.name, source: layer.file, reader: Self.open(layer.file)))
                continue
            }
            let data = try Self.load(layer.file, options: readOptions(for: layer.file))
            served.append(
                try FilterArguments.heatmap(
                    name: layer.name, source: layer.file, settings: layer.settings,
                    filters: filters[layer.name] ?? .init(), data: data))
        }
        return (served, stored, try hostedURLLayers())
    }

    /// The data options a file is read with: the flags', with its layer's `value` if any.
    func readOptions(for file: String) -> PointReadOptions {
        readOptions.withValueColumn(valueColumns[file])
    }
}

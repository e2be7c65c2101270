import Foundation
import HeatmapKit
import HeatmapPostgres
import HeatmapTiles

/// `heatmap tile DATA z/x/y[@2x] [options]`: one tile as PNG, or its raw intensities.
struct TileCommand {
    static let usage = """
        usage: heatmap tile DATA Z/X/Y[@2x|@3x] [--radius N] [--opacity F] [--max-intensity M]
                            [--gradient G] [--color-map-size N] [--color-scale linear|sqrt|log]
                            [--min-zoom-intensity Z] [--max-zoom-intensity Z]
                            [--radius-meters M] [--radius-latitude LAT] [--aggregate sum|mean]
                            [--min-density D] [--value-range LO,HI]
                            [--datetime START/END] [--category COL:V1,V2]... [--scale-of filter|all]
                            [--format png|webp|intensity] [--webp-quality N] [--output FILE]
                            [--data-format F] [--lat COL] [--lng COL] [--weight COL] [--skip-invalid]
               heatmap tile --postgres URL --table T Z/X/Y[@2x|@3x] [--where SQL] [the same options]
          DATA               points: JSON, CSV, TSV, GeoJSON or NDJSON, gzip too; - for standard input
          Z/X/Y              the tile in the XYZ scheme (0/0/0 is the whole world); @2x for 512 px
        \(SettingArguments.help)
        \(ImageFormatArguments.help(extra: ", intensity (Float32 little-endian, row-major,\n                             north row first, before normalisation)"))
          --output FILE      where to write (default: standard output)
        \(DataArguments.help)
        \(PostgresArguments.help)
        An empty tile prints "no tile" on standard error and writes nothing.
        """

    var dataPath: String
    var tile: TileAddress
    var settings: HeatmapSettings
    var format: String
    /// PNG or WebP, `nil` for `--format intensity`.
    var image: ImageFormatArguments?
    var output: String?
    var options: PointReadOptions
    var postgres: (ConnectionString, PostgresTable)?
    /// `--datetime`, `--category`, `--scale-of`, or `nil` for none.
    var filter: LayerFilterRequest?

    init(_ arguments: [String]) throws(CommandError) {
        let list = try ArgumentList(
            arguments,
            valued: DataArguments.valued.union(PostgresArguments.valued).union(["output"])
                .union(SettingArguments.valued).union(ImageFormatArguments.valued), flags: DataArguments.flags)
        postgres = try PostgresArguments.table(list)
        let wanted = postgres == nil ? 2 : 1
        guard list.positionals.count == wanted else {
            let what = postgres == nil ? "DATA and Z/X/Y" : "Z/X/Y (with --postgres, no DATA)"
            throw .usage("tile needs \(what), got \(list.positionals.count) arguments\n\(Self.usage)")
        }
        dataPath = wanted == 2 ? list.positionals[0] : ""
        tile = try TileAddress(parsing: list.positionals[wanted - 1])
        settings = .paletteDefault
        try SettingArguments.apply(list, to: &settings)
        image = try ImageFormatArguments.parse(list, others: ["intensity"])
        format = image?.format.rawValue ?? "intensity"
        output = list.text("output")
        options = try DataArguments.options(list)
        try KernelArguments.check(settings, options: options, postgres: postgres != nil)
        filter = try FilterArguments.request(list, options: options, settings: settings)
        do {
            try settings.validate()
        } catch {
            throw .usage(error.description)
        }
    }

    func run() throws(CommandError) {
        var layer: HeatmapTileLayer
        if let (connection, table) = postgres {
            // Pinned: the tile and its zoom's M(z) are read from one state of the table.
            let pinned: PostgresSource
            (layer, pinned) = try PostgresArguments.pinnedLayer(
                connection, table, valueColumn: options.valueColumn, settings: settings)
            if let filter {
                guard
                    let filtered = try FilterArguments.layer(
                        filter, filters: try PostgresArguments.filters(pinned), base: layer, settings: settings,
                        zoom: tile.zoom, scale: tile.scale)
                else { return reportNoTile() }
                layer = filtered
            }
        } else {
            let file = try DataArguments.read(dataPath, options: options)
            layer = DataArguments.layer(file, settings: settings)
            if let filter {
                guard
                    let filtered = try FilterArguments.layer(
                        filter, file: file, base: layer, settings: settings, zoom: tile.zoom, scale: tile.scale)
                else { return reportNoTile() }
                layer = filtered
            }
        }
        let bytes: [UInt8]
        do {
            if format == "intensity", settings.aggregate == .mean {
                guard let grid = try layer.mean(x: tile.x, y: tile.y, zoom: tile.zoom, scale: tile.scale) else {
                    return reportNoTile()
                }
                bytes = grid.means.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
            } else if format == "intensity" {
                guard let grid = try layer.intensity(x: tile.x, y: tile.y, zoom: tile.zoom, scale: tile.scale) else {
                    return reportNoTile()
                }
                bytes = grid.values.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }
                }
            } else {
                guard
                    case .image(let png) = try layer.tileFor(x: tile.x, y: tile.y, zoom: tile.zoom, scale: tile.scale)
                else { return reportNoTile() }
                bytes = try image?.bytes(ofPNG: png) ?? png
            }
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError("\(error)")
        }
        try write(bytes)
    }

    private func reportNoTile() {
        StandardStreams.error("no tile\n")
    }

    private func write(_ bytes: [UInt8]) throws(CommandError) {
        try OutputFile.write(bytes, to: output, what: "tile")
    }
}

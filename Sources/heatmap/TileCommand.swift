import Foundation
import HeatmapKit
import HeatmapPostgres
import HeatmapServer
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
    var filters: SettingOverrides?

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
        filters = try FilterArguments.given(list, options: options, settings: settings)
        do {
            try settings.validate()
        } catch {
            throw .usage(error.description)
        }
    }

    func run() throws(CommandError) {
        // With filters: the command's one heatmap with filters, as the server draws them.
        let layer: HeatmapTileLayer
        if let (connection, table) = postgres {
            // Pinned: the tile and its zoom's M(z) are read from one state of the table.
            let pinned: PostgresSource
            (layer, pinned) = try PostgresArguments.pinnedLayer(
                connection, table, valueColumn: options.valueColumn, settings: settings)
            if let filters {
                return try run(try FilterArguments.heatmap(pinned, name: "table", settings: settings, filters: filters))
            }
        } else {
            let file = try DataArguments.read(dataPath, options: options)
            if let filters {
                return try run(try FilterArguments.heatmap(file, name: "points", settings: settings, filters: filters))
            }
            layer = DataArguments.layer(file, settings: settings)
        }
        let bytes: [UInt8]
        do {
            if format == "intensity", settings.aggregate == .mean {
                guard let grid = try layer.mean(x: tile.x, y: tile.y, zoom: tile.zoom, scale: tile.scale) else {
                    return reportNoTile()
                }
                bytes = Self.littleEndianBytes(grid.means)
            } else if format == "intensity" {
                guard let grid = try layer.intensity(x: tile.x, y: tile.y, zoom: tile.zoom, scale: tile.scale) else {
                    return reportNoTile()
                }
                bytes = Self.littleEndianBytes(grid.values)
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

    /// The tile of the points the filters keep: its intensities (which no colour scale
    /// changes), or as the server draws `?datetime=&category=`; "no tile" when they keep none.
    private func run(_ filtered: ServedLayer) throws(CommandError) {
        let request = TileRequest(x: tile.x, y: tile.y, zoom: tile.zoom, scale: tile.scale)
        let bytes: [UInt8]
        do {
            if format == "intensity" {
                guard let kept = try filtered.keptHeatmap(),
                    let grid = try kept.intensity(x: tile.x, y: tile.y, zoom: tile.zoom, scale: tile.scale)
                else { return reportNoTile() }
                bytes = Self.littleEndianBytes(grid.values)
            } else {
                guard case .image(let png) = try filtered.tileFor(request) else { return reportNoTile() }
                bytes = try image?.bytes(ofPNG: png) ?? png
            }
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

extension TileCommand {
    /// `values` as `--format intensity` writes them: each `Float`'s bits, little-endian.
    static func littleEndianBytes(_ values: [Float]) -> [UInt8] {
        values.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) } }
    }
}

import Foundation
import HeatmapKit
import HeatmapPostgres
import HeatmapServer
import HeatmapTiles

/// `heatmap image DATA --center LAT,LNG --zoom Z --size WxH [options]`: a static image of any
/// viewport, drawn from the same tiles as `heatmap tile` (seamless), optionally over a base layer;
/// `--postgres URL --table T` in place of DATA draws a table's rows.
struct ImageCommand {
    static let usage = """
        usage: heatmap image DATA --center LAT,LNG --zoom Z --size WxH [--scale S] [--output FILE]
               heatmap image --postgres URL --table T --center LAT,LNG --zoom Z --size WxH [options]
                             [--format png|webp] [--webp-quality N]
                             [--base URL_TEMPLATE] [--base-tile-size 256|512]
                             [--radius N] [--opacity F] [--max-intensity M] [--gradient G]
                             [--color-map-size N] [--color-scale S] [--min-zoom-intensity Z] [--max-zoom-intensity Z]
                             [--radius-meters M] [--radius-latitude LAT] [--aggregate sum|mean] [--min-density D]
                             [--value-range LO,HI] [--value COL]
                             [--datetime START/END] [--category COL:V1,V2]... [--scale-of filter|all]
                             [--data-format F] [--lat COL] [--lng COL] [--weight COL] [--skip-invalid]
                             [--step STEP] [--window LENGTH]
          DATA               points: JSON, CSV, TSV, GeoJSON or NDJSON, gzip too; - for standard input
          --center LAT,LNG   the centre of the image in degrees
          --zoom Z           the zoom level, 0...22
          --size WxH         the size in points, such as 600x400 (at most 4096 pixels a side)
          --scale S          pixels per point, 1, 2 or 3 (default 1)
          --base TEMPLATE    draw the heatmap over the tiles of a URL template, {z}/{x}/{y}:
                             file:///dir/{z}/{x}/{y}.png, http:// or https://
          --base-tile-size   the base tiles' side in pixels (default 256; scaled up by nearest
                             neighbour to the heatmap's 256 × scale)
          --radius, --opacity, --max-intensity, --gradient, --color-map-size, --color-scale,
          --min-zoom-intensity, --max-zoom-intensity, --radius-meters, --radius-latitude,
          --aggregate, --min-density, --value-range   as for heatmap tile
          --output FILE      where to write the image (default: standard output)
        \(AnimationArguments.help)
        \(ImageFormatArguments.help())
        \(DataArguments.help)
        \(PostgresArguments.help)
        """

    var dataPath: String
    var viewport: Viewport
    var settings: HeatmapSettings
    var base: String?
    var baseTileSize: Int
    var output: String?
    var format: ImageFormatArguments
    var options: PointReadOptions
    var animation: AnimationArguments?
    /// `--datetime`, `--category`, `--scale-of`: one frame of the points kept (or, with `--step`,
    /// the interval animated and the frames' categories and scale), or `nil`.
    var filters: SettingOverrides?
    /// The filters' request, or `nil`.
    var filter: LayerFilterRequest? { filters?.filter }
    /// `--postgres URL --table T`: the table drawn in place of DATA, or `nil`.
    var postgres: (ConnectionString, PostgresTable)?

    init(_ arguments: [String]) throws(CommandError) {
        let list = try ArgumentList(
            arguments,
            valued: DataArguments.valued.union([
                "center", "zoom", "size", "scale", "base", "base-tile-size",
                "output",
            ]).union(SettingArguments.valued).union(ImageFormatArguments.valued).union(AnimationArguments.valued)
                .union(PostgresArguments.valued.subtracting(["layer-name", "statement-timeout"])),
            flags: DataArguments.flags)
        postgres = try PostgresArguments.table(list)
        guard list.positionals.count == (postgres == nil ? 1 : 0) else {
            let what = postgres == nil ? "DATA" : "no DATA with --postgres"
            throw .usage("image needs \(what), got \(list.positionals.count) arguments\n\(Self.usage)")
        }
        if postgres != nil { try PostgresArguments.refuseFileOptions(list) }
        dataPath = list.positionals.first ?? ""
        guard let centerText = list.text("center"), let zoom = try list.integer("zoom"),
            let sizeText = list.text("size")
        else { throw .usage("image needs --center LAT,LNG, --zoom Z and --size WxH\n\(Self.usage)") }
        let center = try Self.pair(centerText, separator: ",", option: "center", example: "-37.81,144.96")
        let size = try Self.pair(sizeText, separator: "x", option: "size", example: "600x400")
        guard let width = Int(exactly: size.0), let height = Int(exactly: size.1) else {
            throw .usage("--size expects whole numbers WxH, such as 600x400, got \"\(sizeText)\"")
        }
        viewport = Viewport(
            center: Coordinate(latitude: center.0, longitude: center.1), zoom: zoom, width: width, height: height,
            scale: try list.integer("scale") ?? 1)
        do {
            try viewport.validate()
        } catch {
            throw .usage(error.description)
        }
        settings = .paletteDefault
        try SettingArguments.apply(list, to: &settings)
        do {
            try settings.validate()
        } catch {
            throw .usage(error.description)
        }
        base = list.text("base")
        baseTileSize = try list.integer("base-tile-size") ?? 256
        guard [256, 512].contains(baseTileSize) else {
            throw .usage("--base-tile-size is 256 or 512, got \(baseTileSize)")
        }
        output = list.text("output")
        format = try ImageFormatArguments.parse(list) ?? ImageFormatArguments(format: .png)
        options = try DataArguments.options(list)
        try KernelArguments.check(settings, options: options, postgres: postgres != nil)
        filters = try FilterArguments.given(list, options: options, settings: settings)
        animation = try AnimationArguments.parse(list)
        if let animation, options.timeColumn == nil {
            throw .usage("--step \(animation.step) animates the points' times: give --time COL")
        }
        if animation != nil, settings.aggregate == .mean {
            throw .usage("--step animates densities; --aggregate mean has no time filter")
        }
    }

    /// Two numbers separated by `separator` ("-37.8,144.9" or "600x400").
    static func pair(_ text: String, separator: Character, option: String, example: String) throws(CommandError)
        -> (Double, Double)
    {
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let second = Double(parts[1].trimmingCharacters(in: .whitespaces)), first.isFinite, second.isFinite
        else { throw .usage("--\(option) expects two numbers such as \(example), got \"\(text)\"") }
        return (first, second)
    }

    func run() throws(CommandError) {
        var baseLayer: URLTileLayer? = nil
        if let base {
            do {
                baseLayer = try URLTileLayer(
                    template: base, name: "base", tileSize: baseTileSize, fetcher: TileFetchBackend.shared)
            } catch {
                throw .usage(error.description)
            }
        }
        let (whole, source, filtered) = try data()
        if let animation { return try runAnimation(animation, filters: source, whole: whole, base: baseLayer) }
        // With filters, no point kept is a clear image (over the base, if any).
        let heatmap: any TileLayer = filtered ?? whole
        let layer: any TileLayer = baseLayer.map { TileStack([$0, heatmap]) } ?? heatmap
        let bytes: [UInt8]
        do {
            guard let image = try layer.imageFor(viewport) else {
                throw CommandError("a tile of the base is not available yet (the upstream failed or timed out)")
            }
            if format.format == .webp {
                bytes = try format.webp.encode(image)
            } else {
                // One image, for reports and e-mails: zlib's default level, smaller than the tiles' fast deflate.
                bytes = try PNGEncoder(
                    filter: .adaptive, compressionLevel: .zlibDefault, compressor: .zlib, palette: .whenExact,
                    paletteFilter: .adaptive
                ).encode(image)
            }
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError("\(error)")
        }
        try write(bytes)
    }

    /// The layer of every point (a file's, or a table's rows pinned to one state, as `tile`
    /// reads them); for an animation the data's filters (read with `--time` or `--categories`);
    /// with `--datetime` or `--category`, the command's one heatmap with filters, as the server
    /// draws them. A table's time range and category values (a scan of its rows) are read only
    /// when they serve: resolving `--category` values, or an animation's interval and frames.
    private func data() throws(CommandError) -> (
        whole: HeatmapTileLayer, filters: (any FilterSource)?, filtered: ServedLayer?
    ) {
        guard let (connection, table) = postgres else {
            let file = try DataArguments.read(dataPath, options: options)
            var filtered: ServedLayer?
            if let filters, animation == nil {
                filtered = try FilterArguments.heatmap(file, name: "points", settings: settings, filters: filters)
            }
            return (DataArguments.layer(file, settings: settings), file.filters, filtered)
        }
        let (layer, pinned) = try PostgresArguments.pinnedLayer(
            connection, table, valueColumn: options.valueColumn, settings: settings)
        if animation != nil { return (layer, try PostgresArguments.filters(pinned), nil) }
        guard let filters else { return (layer, nil, nil) }
        return (layer, nil, try FilterArguments.heatmap(pinned, name: "table", settings: settings, filters: filters))
    }

    private func write(_ bytes: [UInt8]) throws(CommandError) {
        try OutputFile.write(bytes, to: output, what: "image")
    }
}

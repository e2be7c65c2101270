import Dispatch
import Foundation
import HeatmapKit
import HeatmapPostgres
import HeatmapServer
import HeatmapTiles

/// `heatmap render DATA --zoom A-B --output OUT`: every tile of a zoom range that can hold data,
/// into an MBTiles file, a PMTiles file or a folder.
struct RenderCommand {
    static let usage = """
        usage: heatmap render DATA --zoom A-B --output heat.mbtiles|heat.pmtiles|DIR/
               heatmap render --config FILE.json --layer NAME --zoom A-B --output OUT
               heatmap render [DATA] --layer NAME=FILE|URL_TEMPLATE... [--layer NAME] --zoom A-B --output OUT
               heatmap render --postgres URL --table T --zoom A-B --output OUT [--where SQL] [the same options]
                              [--radius N] [--opacity F] [--gradient G] [--max-intensity M]
                              [--color-map-size N] [--color-scale S] [--min-zoom-intensity Z] [--max-zoom-intensity Z]
                              [--radius-meters M] [--radius-latitude LAT] [--aggregate sum|mean] [--min-density D]
                              [--value-range LO,HI] [--value COL]
                              [--scale 1|2|3] [--bounds W,S,E,N] [--jobs N] [--name NAME]
                              [--attribution TEXT] [--format png|webp] [--webp-quality N]
                              [--quiet] [--force] [--resume] [--upstream-timeout S]
                              [--data-format F] [--lat COL] [--lng COL] [--weight COL] [--skip-invalid]
          DATA               points: JSON, CSV, TSV, GeoJSON or NDJSON, gzip too; - for standard input;
                             or tiles heatmap render wrote (heat.mbtiles, heat.pmtiles, a folder)
          --layer NAME=FILE|URL  a layer as serve takes it (repeatable): points, an archive, or tiles
                             from a URL template (https://host/{z}/{x}/{y}.png, file:///dir/{z}/{x}/{y}.png)
          --layer NAME       the layer to render when there are several: a layer, a stack of the
                             configuration, or a+b (b over a), as the server's URLs name them
          --config FILE      the layers and stacks of heatmap serve's configuration file
          --zoom A-B         the zoom levels to render, 0...22 (or one level, --zoom 5)
          --output OUT       .mbtiles (MBTiles 1.3), .pmtiles (PMTiles v3), or a folder of
                             {z}/{x}/{y}.png ({y}@2x.png at --scale 2; .webp with --format webp)
          --radius, --opacity, --max-intensity, --gradient, --color-map-size, --color-scale,
          --min-zoom-intensity, --max-zoom-intensity, --max-percentile, --radius-meters,
          --radius-latitude, --aggregate, --min-density, --value-range   as for heatmap tile (a
                             layer of the configuration: its own keys win, as in serve)
          --scale S          1, 2 or 3: tiles of 256, 512 or 768 pixels (default 1)
          --bounds W,S,E,N   only the tiles that meet this area (degrees; W > E crosses 180°)
          --jobs N           render threads (default: every core)
          --name, --attribution   the tile set's name (default: DATA's, the output's for -) and attribution
        \(ImageFormatArguments.help())
          --quiet            no progress and no summary, only errors
          --force            replace an existing output
          --resume           continue an interrupted render into MBTiles or a folder, same options
          --statement-timeout S   with --postgres: cancel a query slower than S seconds (default none)
        \(DataArguments.help)
        \(PostgresArguments.help)
        The tiles are the bytes heatmap serve answers for the layer. Only tiles whose area padded by
        the radius holds weight are visited (a stack: any of its layers'); a layer that cannot say
        which tiles are empty (a URL layer, an archive) walks every tile that meets --bounds, which
        it then needs. Empty tiles are not stored. Ctrl-C stops after the tiles under way and keeps
        them (MBTiles, folders).
        The metadata name the filters (--datetime, --category), and from a table count the rows
        they keep and bound them (from a file: every point read). A stack's metadata hold no legend:
        each of its layers keeps its own colour scale (serve's /{stack}/legend.json lists them).
        """

    var dataPath: String
    var output: String
    var kind: TileArchive.Kind
    var zooms: ClosedRange<Int>
    var scale: Int
    var settings: HeatmapSettings
    var gradientText: String
    var area: TileArea?
    var jobs: Int
    var name: String
    var attribution: String
    var format: ImageFormatArguments
    var quiet: Bool
    var mode: OutputMode
    var options: PointReadOptions
    var recorded: [String: String]
    /// The settings given, for the filters (`--datetime`, `--category`, `--scale-of`: see
    /// RenderCommand+Filters.swift).
    var overrides = SettingOverrides()
    var postgres: (ConnectionString, PostgresTable)?
    /// `--statement-timeout S` with `--postgres`, in seconds; `nil` for none.
    var statementTimeout: Double?
    /// The layers given (files, `--layer NAME=…`, `--config`), without `--postgres`.
    var layers: LayerArguments?
    /// `--layer NAME`: the layer, stack or `a+b` to render.
    var selected: String?

    init(_ arguments: [String]) throws(CommandError) {
        var rest: [String] = []
        var named: [String] = []
        var selected: String?
        var i = 0
        while i < arguments.count {
            var value: String?
            if arguments[i] == "--layer" {
                guard i + 1 < arguments.count else { throw .usage("option --layer needs NAME or NAME=FILE") }
                value = arguments[i + 1]
                i += 2
            } else if arguments[i].hasPrefix("--layer=") {
                value = String(arguments[i].dropFirst(8))
                i += 1
            } else {
                rest.append(arguments[i])
                i += 1
            }
            guard let value else { continue }
            if value.contains("=") {
                named.append(value)
            } else {
                guard selected == nil else { throw .usage("render draws one layer: --layer \(value) is a second") }
                selected = value
            }
        }
        self.selected = selected
        let list = try ArgumentList(
            rest,
            valued: LayerArguments.valued.union([
                "zoom", "output", "scale", "bounds", "jobs", "name", "attribution", "statement-timeout",
            ]).union(ImageFormatArguments.valued),
            flags: DataArguments.flags.union(["quiet", "force", "resume"]))
        postgres = try PostgresArguments.table(list)
        let given = named.count + (list.text("config") == nil ? 0 : 1)
        guard
            postgres == nil
                ? list.positionals.count <= 1 && (list.positionals.count == 1 || given > 0)
                : list.positionals.isEmpty && given == 0 && selected == nil
        else {
            let what =
                postgres == nil ? "DATA (or --layer, --config)" : "no DATA with --postgres (nor --layer or --config)"
            throw .usage("render needs \(what), got \(list.positionals.count) arguments\n\(Self.usage)")
        }
        try Self.refuseWithPostgres(list, postgres: postgres != nil)
        if let seconds = try list.number("statement-timeout") {
            guard seconds >= 0, seconds <= 86_400 else {
                throw .usage("--statement-timeout is 0...86400 seconds, got \(seconds)")
            }
            statementTimeout = seconds > 0 ? seconds : nil
        }
        if postgres == nil {
            layers = try LayerArguments(list, named: named)
        }
        dataPath = list.positionals.first ?? postgres?.1.name ?? selected ?? ""
        guard let output = list.text("output"), !output.isEmpty else {
            throw .usage("render needs --output heat.mbtiles, heat.pmtiles or a folder")
        }
        self.output = output
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), isFolder.boolValue {
            kind = .folder
        } else if let kind = TileArchive.kind(of: output) {
            self.kind = kind
        } else {
            throw .usage("--output \(output): the name must end in .mbtiles or .pmtiles, or be a folder (DIR/)")
        }
        guard let zoomText = list.text("zoom") else { throw .usage("render needs --zoom A-B, such as --zoom 0-12") }
        zooms = try Self.zoomRange(zoomText)
        scale = try list.integer("scale") ?? 1
        guard (1...3).contains(scale) else { throw .usage("--scale is 1, 2 or 3, got \(scale)") }
        settings = .paletteDefault
        gradientText = list.text("gradient") ?? "default"
        try SettingArguments.apply(list, to: &settings)
        do {
            try settings.validate()
        } catch {
            throw .usage("\(error)")
        }
        if let text = list.text("bounds") { area = TileArea(try Self.bounds(text)) }
        jobs = try list.integer("jobs") ?? ProcessInfo.processInfo.activeProcessorCount
        guard (1...1024).contains(jobs) else { throw .usage("--jobs is 1...1024, got \(jobs)") }
        name = list.text("name") ?? Self.defaultName(data: dataPath, output: output)
        attribution = list.text("attribution") ?? ""
        format = try ImageFormatArguments.parse(list) ?? ImageFormatArguments(format: .png)
        quiet = list.flag("quiet")
        if list.flag("force") && list.flag("resume") { throw .usage("--force and --resume exclude each other") }
        mode = list.flag("force") ? .overwrite : list.flag("resume") ? .resume : .create
        options = try DataArguments.options(list)
        try KernelArguments.check(settings, options: options, postgres: postgres != nil)
        overrides = try SettingArguments.overrides(list)
        // A table's filters need its --time and --categories, and the sum, as `tile`'s.
        if postgres != nil { _ = try FilterArguments.request(list, options: options, settings: settings) }
        recorded = [
            "data": postgres == nil ? dataPath : "postgres table \(dataPath)",
            "zoom": "\(zooms.lowerBound)-\(zooms.upperBound)", "scale": String(scale),
            "radius": String(settings.radius), "opacity": String(settings.opacity), "gradient": gradientText,
            "max-intensity": settings.maximumIntensity.map { String($0) } ?? "auto",
            "bounds": list.text("bounds") ?? "",
        ]
        for key in SettingArguments.valued where key != "gradient" {
            if let value = list.text(key) { recorded[key] = value }
        }
        // Every selection (a repeated option's last alone would not say what was drawn).
        let categories = overrides.texts(of: "category")
        if !categories.isEmpty { recorded["category"] = categories.joined(separator: " ") }
        if let selected { recorded["layer"] = selected }
        if !named.isEmpty { recorded["layers"] = named.joined(separator: " ") }
        if let config = list.text("config") { recorded["config"] = config }
        for key in DataArguments.valued { if let value = list.text(key) { recorded[key] = value } }
        for key in ["geometry", "where"] { if let value = list.text(key) { recorded[key] = value } }
        if list.flag("skip-invalid") { recorded["skip-invalid"] = "yes" }
        recorded.merge(format.recorded) { $1 }
    }

    static func zoomRange(_ text: String) throws(CommandError) -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, (1...2).contains(numbers.count), let low = numbers.first,
            let high = numbers.last, (0...22).contains(low), (low...22).contains(high)
        else {
            throw .usage("--zoom expects A-B with 0 <= A <= B <= 22 (or one zoom), got \"\(text)\"")
        }
        return low...high
    }

    static func bounds(_ text: String) throws(CommandError) -> PointBounds {
        let values = text.split(separator: ",", omittingEmptySubsequences: false).compactMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard values.count == 4, values.allSatisfy(\.isFinite), (-180...180).contains(values[0]),
            (-180...180).contains(values[2]), (-90...90).contains(values[1]), (-90...90).contains(values[3]),
            values[1] < values[3]
        else {
            throw .usage(
                "--bounds expects W,S,E,N in degrees (longitudes -180...180, latitudes -90...90, S < N), got \"\(text)\""
            )
        }
        return PointBounds(south: values[1], west: values[0], north: values[3], east: values[2])
    }

    func run() throws(CommandError) {
        if mode == .create, FileManager.default.fileExists(atPath: output),
            kind != .folder || !((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).isEmpty
        {
            throw CommandError(
                "\(output) exists already; --force replaces it"
                    + (kind == .pmtiles ? "" : ", --resume continues an interrupted render"))
        }
        if let (connection, table) = postgres { return try runPostgres(connection, table) }
        guard let layers else { return }
        try run(layers)
    }

    /// Renders the walk's tiles through `layer` into the output, with the progress display,
    /// Ctrl-C handling and summary; `failed` words a failure (the PostgreSQL source says when
    /// the table changed).
    func render(
        layer: any TileLayer, walk: PyramidWalk, metadata: TileMetadata,
        failed: (String) -> String = { $0 }
    ) throws(CommandError) {
        let sink = try makeSink(metadata)
        let progress = RenderProgress()
        let signals = Self.handleInterrupt(progress)
        defer { for source in signals { source.cancel() } }
        let display = RenderProgressDisplay(progress: progress, output: output, quiet: quiet)
        display.counting()
        do {
            progress.total.store(try walk.counted { !progress.isStopping }, ordering: .relaxed)
        } catch {
            display.stop()
            // The output is made already (its metadata, no tile): say so, as a failed render does.
            let left =
                sink.stop()
                ? "\(output) is kept with no tile yet: --resume continues it, --force starts again"
                : "no output was left"
            throw CommandError(failed("finding the tiles: \(error.description); \(left)"))
        }
        display.start()
        var renderer = PyramidRenderer(layer: layer, walk: walk, scale: scale, jobs: jobs)
        if format.format == .webp {
            let webp = format.webp
            renderer.transcode = { png in try webp.encode(png: png) }
        }
        let summary: RenderSummary
        do {
            summary = try renderer.render(into: sink, progress: progress)
        } catch {
            display.stop()
            throw CommandError(failed(error.description))
        }
        display.stop()
        display.summarize(summary)
        if summary.interrupted { throw CommandError("", status: 130) }
    }

    /// The first SIGINT (or SIGTERM) asks the render to stop after the tiles under way; a
    /// second exits at once (MBTiles keeps its last committed transaction even then).
    static func handleInterrupt(_ progress: RenderProgress) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            signal(number, SIG_IGN)
            source.setEventHandler {
                if progress.isStopping {
                    StandardStreams.error("\nheatmap: stopped at once\n")
                    exit(130)
                }
                progress.requestStop()
            }
            source.resume()
            return source
        }
    }
}

import Dispatch
import Foundation
import HeatmapKit
import HeatmapPostgres
import HeatmapPostgresServer
import HeatmapServer
import HeatmapTiles
import Synchronization

/// `heatmap serve DATA... [options]`: an HTTP tile server with a map page.
struct ServeCommand {
    static let usage = """
        usage: heatmap serve DATA... [--port 8080] [--host 127.0.0.1] [--layer NAME=FILE|URL]...
                             [--radius N] [--opacity F] [--gradient G] [--max-intensity M]
                             [--config FILE.json] [--cache-mb N] [--cache-control TEXT]
                             [--attribution TEXT] [--no-cors] [--max-connections N] [--base-map URL]
                             [--empty-tile 204|png] [--document-cache-control TEXT] [--no-watch]
                             [--data-format F] [--lat COL] [--lng COL] [--weight COL] [--skip-invalid]
                             [--postgres URL --table T [--where SQL] [--layer-name N] [--statement-timeout S]]
                             [--upstream-timeout SECONDS] [--access-log FILE|-]
                             [--idle-timeout 60] [--request-timeout 10] [--write-timeout 30]
                             [--write-token-file FILE] [--max-body-mb 16]
          DATA               points (JSON, CSV, TSV, GeoJSON, NDJSON, gzip), or tiles heatmap render
                             wrote (heat.mbtiles, heat.pmtiles, a folder); the layer is named after
                             the file: police_stations.json is /police_stations/{z}/{x}/{y}.png
          --layer NAME=FILE  a layer with a name of your choice (repeatable); NAME=URL_TEMPLATE
                             (https://host/{z}/{x}/{y}.png, http://..., file:///dir/{z}/{x}/{y}.png)
                             serves tiles from there (503 with Retry-After: 2 while they fail)
          --upstream-timeout S  seconds a URL layer waits for one tile (default 10)
          --radius, --opacity, --max-intensity   every layer's settings (see heatmap help tile)
          --radius-meters, --radius-latitude, --aggregate, --min-density, --value-range, --value
                             as for heatmap tile; each also a query parameter (radius-meters=...)
          --gradient, --color-map-size, --color-scale, --min-zoom-intensity, --max-zoom-intensity
                             as for heatmap tile (presets: default, viridis, inferno, magma,
                             turbo, cividis, fire, ice, classic)
                             such as 0000ff:0.2,ff0000:1
          --config FILE      JSON with host, port, cacheMB, cacheControl, documentCacheControl, cors,
                             emptyTile, watch, attribution,
                             defaults {radius, opacity, gradient, maxIntensity, colorScale, ...,
                             radiusMeters, radiusLatitude, aggregate, value, minDensity, valueRange}, layers
                             [{name, file, radius, ...} or {name, url}], stacks [{name, layers}]
                             and upstreamTimeout; a layer's own values win, then flags
          --cache-mb N       tile cache size (default 256)
          --cache-control T  Cache-Control of tiles (default "public, max-age=300")
          --base-map URL     the map page's base layer, {z}/{x}/{y} (default OpenStreetMap; "" for none)
          --empty-tile png   answer empty tiles with a transparent PNG instead of 204 (Leaflet,
                             OpenLayers count a 204 as a tile error)
          --document-cache-control T   Cache-Control of TileJSON, catalog, page (default no-cache)
          --no-watch         do not reload a layer when its data file changes (SIGHUP still does)
          --max-connections N   open connections at most (default 1024; 503 beyond)
          --idle-timeout S   close a keep-alive connection idle for S seconds (default 60)
          --request-timeout S   a request head must arrive within S seconds of its first byte (408)
          --write-timeout S  close a connection whose responses make no progress for S seconds (30)
          --access-log FILE  log requests in the common log format to FILE (- for standard output;
                             off by default); SIGHUP opens FILE again (after logrotate)
        \(Self.writeHelp)
        \(DataArguments.help)
        \(PostgresArguments.help)
          --layer-name N     the table's layer name (default: the table's name)
          --statement-timeout S   cancel a query slower than S seconds, answering 503 (default 30; 0 for none)
        Routes: / (map), /catalog, /{layer}.json and /{layer}@2x.json (TileJSON),
        /{layer}/{z}/{x}/{y}[@2x].png, /{a}+{b}/{z}/{x}/{y}.png (b over a), .webp for WebP of the same
        tile (lossless; ?webp-quality=N for lossy; /{layer}.json?format=webp lists those),
        /static/{layer}/{lon},{lat},{zoom}/{w}x{h}[@2x].png, /health, /metrics. Heatmap tiles take
        ?radius=&opacity=&gradient=&max= overrides, and color-map-size=, color-scale=,
        min-zoom-intensity=, max-zoom-intensity= (a stack's URL passes them to its heatmaps);
        /{layer}/legend.png?z=Z and legend.json (archives: the stored legend; stacks: each member's). POST and DELETE /{layer}/points (with
        --write-token-file) append and remove points. A changed data file, or SIGHUP, reloads the data;
        SIGINT or SIGTERM stops after the requests under way.
        """

    /// The largest `--cache-mb` (16 TiB), so that the size in bytes is an exact `Int`.
    static let maximumCacheMB = 1 << 24

    var host = "127.0.0.1"
    var port = 8080
    /// The layers and stacks served.
    var layers: LayerArguments
    var options = ServerOptions()
    var limits = HTTPLimits()
    var statementTimeout: Double = 30
    /// Whether to reload layers whose data files change.
    var watch = true
    /// `--access-log`: the file (`-` for standard output), or `nil` for no log.
    var accessLogPath: String?

    init(_ arguments: [String]) throws(CommandError) {
        if arguments.contains("--help") || arguments.contains("-h") { throw .usage(Self.usage) }
        var rest: [String] = []
        var named: [String] = []
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if argument == "--layer" {
                guard i < arguments.count else { throw .usage("option --layer needs NAME=FILE") }
                named.append(arguments[i])
                i += 1
            } else if argument.hasPrefix("--layer=") {
                named.append(String(argument.dropFirst(8)))
            } else {
                rest.append(argument)
            }
        }
        let list = try ArgumentList(
            rest,
            valued: LayerArguments.valued.union([
                "port", "host", "cache-mb", "cache-control", "attribution", "max-connections", "base-map",
                "empty-tile", "document-cache-control", "access-log",
            ]).union(Self.timeoutFlags).union(Self.writeValued),
            flags: DataArguments.flags.union(["no-cors", "no-watch"]))
        layers = try LayerArguments(list, named: named)
        let config = layers.config
        host = list.text("host") ?? config.host ?? host
        accessLogPath = try Self.accessLogPath(list.text("access-log"))
        port = try list.integer("port") ?? config.port ?? port
        guard (0...65535).contains(port) else { throw .usage("--port \(port) is outside 0...65535") }
        let cacheMB = try list.integer("cache-mb") ?? config.cacheMB ?? 256
        guard (0...Self.maximumCacheMB).contains(cacheMB) else {
            throw .usage("--cache-mb \(cacheMB) is outside 0...\(Self.maximumCacheMB) (MiB; 0 turns the cache off)")
        }
        options.cacheBytes = cacheMB << 20
        options.tileCacheControl = list.text("cache-control") ?? config.cacheControl ?? options.tileCacheControl
        options.cors = !list.flag("no-cors") && (config.cors ?? true)
        options.documentCacheControl =
            list.text("document-cache-control") ?? config.documentCacheControl ?? options.documentCacheControl
        let emptyTile = list.text("empty-tile") ?? config.emptyTile ?? "204"
        guard let empty = EmptyTile(rawValue: emptyTile) else {
            throw .usage("--empty-tile expects 204 or png, got \"\(emptyTile)\"")
        }
        options.emptyTile = empty
        watch = !list.flag("no-watch") && (config.watch ?? true)
        options.attribution = list.text("attribution") ?? config.attribution ?? ""
        options.baseMapURL = list.text("base-map") ?? options.baseMapURL
        limits.maxConnections = try list.integer("max-connections") ?? limits.maxConnections
        guard limits.maxConnections >= 1 else {
            throw .usage("--max-connections \(limits.maxConnections) must be at least 1")
        }
        try Self.applyTimeouts(list, to: &limits)
        (options.writeToken, limits.maxBodyBytes) = try Self.writeOptions(list)
        // Bodies are read only for requests that carry the token (none without a token file).
        limits.bodiesNeedToken = true
        limits.bodyToken = options.writeToken
        statementTimeout = try list.number("statement-timeout") ?? statementTimeout
        guard statementTimeout >= 0 else { throw CommandError.usage("--statement-timeout must be ≥ 0 seconds") }
        guard !layers.files.isEmpty || !layers.urlLayers.isEmpty || layers.postgres != nil else {
            throw .usage("serve needs at least one DATA file\n\(Self.usage)")
        }
    }

    func run() throws(CommandError) {
        let stats = ServerStats()
        var tables: [ServedTable] = []
        let server: HTTPServer
        let service: TileService
        let accessLog = try openAccessLog()
        do {
            var (served, stored, hosted) = try layers.fileLayers()
            if let postgres = layers.postgres {
                let table = try Self.tableLayer(
                    postgres, statementTimeout: statementTimeout, valueColumn: layers.readOptions.valueColumn,
                    filters: layers.filters[postgres.name] ?? .init())
                served.append(table.layer)
                tables.append(table)
            }
            service = try TileService(
                layers: served, stored: stored, hosted: hosted, stacks: layers.stacks, options: options, stats: stats)
            server = try HTTPServer(
                host: host, port: port, limits: limits, responder: service, stats: stats, accessLog: accessLog)
        } catch let error as LayerLoadError {
            throw CommandError(error.description)
        } catch let error as SocketError {
            throw CommandError(error.description)
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError("\(error)")
        }
        server.start()
        let address = host.contains(":") ? "[\(host)]" : host
        let names = layers.names.joined(separator: ", ")
        // The signals are handled before the line that says the server is up: whoever waits for it
        // may stop the server at once, and a SIGTERM pending (blocked by the parent's mask) when
        // handleSignals sets SIG_IGN would be discarded, leaving the server running.
        let sources = Self.handleSignals(
            server: server, service: service, options: layers.readOptions, valueColumns: layers.valueColumns,
            accessLog: accessLog)
        StandardStreams.output("heatmap: serving \(names) on http://\(address):\(server.port)/\n")
        for table in tables { table.start() }
        let files = service.sources
        let watcher =
            watch
            ? DataFileWatcher(paths: files) {
                [readOptions = layers.readOptions, valueColumns = layers.valueColumns] _ in
                StandardStreams.error("heatmap: a data file changed\n")
                Self.reload(service, options: readOptions, valueColumns: valueColumns)
            } : nil
        server.waitUntilStopped()
        watcher?.stop()
        for table in tables { table.stop() }
        for source in sources { source.cancel() }
        accessLog?.close()
        print("heatmap: stopped")
    }

    /// Reads every layer's file again and swaps the data in (a file that fails keeps its old
    /// data), and says so, or what failed, on standard error.
    static func reload(_ service: TileService, options: PointReadOptions, valueColumns: [String: String] = [:]) {
        let errors = service.reload { (path) throws(LayerLoadError) in
            try LayerArguments.load(path, options: options.withValueColumn(valueColumns[path]))
        }
        let message = errors.isEmpty ? "reloaded" : errors.map(\.description).joined(separator: "\n")
        StandardStreams.error("heatmap: \(message)\n")
    }

    /// SIGHUP reloads every layer's file; SIGINT and SIGTERM shut down gracefully (a second
    /// one at once).
    static func handleSignals(
        server: HTTPServer, service: TileService, options: PointReadOptions, valueColumns: [String: String] = [:],
        accessLog: AccessLog? = nil
    ) -> [any DispatchSourceSignal] {
        var sources: [any DispatchSourceSignal] = []
        let stopping = Atomic<Bool>(false)
        for signalNumber in [SIGHUP, SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                if signalNumber == SIGHUP {
                    reopen(accessLog)
                    reload(service, options: options, valueColumns: valueColumns)
                } else if stopping.exchange(true, ordering: .relaxed) {
                    StandardStreams.error("heatmap: stopped at once\n")
                    exit(1)  // asked twice: do not wait for the requests under way
                } else {
                    StandardStreams.error("heatmap: shutting down\n")
                    server.shutdown(grace: 10)
                }
            }
            source.resume()
            sources.append(source)
        }
        return sources
    }
}

import HeatmapKit
import HeatmapPostgres
import HeatmapPostgresServer
import HeatmapServer

/// A table served over HTTP the way `heatmap serve --postgres` serves it: a ``ServedTable``
/// following the table, and a server on a free loopback port.
struct ServedTableFixture {
    let table: ServedTable
    let server: HTTPServer

    /// `http://127.0.0.1:PORT`.
    var base: String { "http://127.0.0.1:\(server.port)" }

    /// Serves `source` as the layer `name` (the density; `data` for another kind of version,
    /// the mean's), following its changes every `interval`, both started.
    init(
        _ source: PostgresSource, name: String = "t", interval: Duration = .milliseconds(100),
        followsPartialChanges: Bool = true, data: (@Sendable (PostgresSource) -> LayerData?)? = nil
    ) throws {
        let initial = try source.changeCount()
        let make = data ?? { LayerData(source: $0, count: 0, bounds: nil) }
        guard let first = make(source.pinned(toChangeCount: initial)) else {
            throw PostgresError.invalidAnswer("the table's first version cannot be read")
        }
        let layer = try ServedLayer(name: name, data: first)
        table = ServedTable(
            layer: layer, source: source, initialCount: initial, interval: interval,
            followsPartialChanges: followsPartialChanges, data: make)
        let stats = ServerStats()
        let service = try TileService(layers: [layer], options: ServerOptions(), stats: stats)
        server = try HTTPServer(host: "127.0.0.1", port: 0, limits: HTTPLimits(), responder: service, stats: stats)
        table.start()
        server.start()
    }

    /// The served layer.
    var layer: ServedLayer { table.layer }

    /// Stops the server and the watcher.
    func stop() {
        server.shutdown(grace: 2)
        table.stop()
    }
}

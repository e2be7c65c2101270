import HeatmapKit
import HeatmapServer
import HeatmapTiles

extension LayerArguments {
    /// Whether a `--layer` value is a URL template rather than a data file.
    static func isURL(_ value: String) -> Bool {
        let lower = value.lowercased()
        return ["http://", "https://", "file://"].contains { lower.hasPrefix($0) }
    }

    /// The URL layers, each with the upstream timeout, fetching through libcurl on Linux.
    ///
    /// - Throws: ``CommandError`` for a template without `{z}`, `{x}` and `{y}` or a bad name.
    func hostedURLLayers() throws(CommandError) -> [HostedLayer] {
        var hosted: [HostedLayer] = []
        for layer in urlLayers {
            do {
                let tiles = try URLTileLayer(
                    template: layer.template, name: layer.name, timeout: upstreamTimeout,
                    fetcher: TileFetchBackend.shared)
                hosted.append(try HostedLayer(name: layer.name, layer: tiles, description: "Tiles from a URL"))
            } catch let error as TileLayerError {
                throw CommandError("layer \(layer.name): \(error.description)")
            } catch {
                throw CommandError("\(error)")
            }
        }
        return hosted
    }
}

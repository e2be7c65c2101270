import HeatmapKit
import HeatmapServer

extension RenderCommand {
    /// `layer` drawn with the filters given (`--datetime`, `--category`, `--scale-of`), as the
    /// server draws `?datetime=&category=`: each heatmap of it (a stack's too) checked first, so
    /// that a column or value the data lack is a usage error before anything is written.
    ///
    /// - Throws: ``CommandError`` (64) naming the value, or a layer that takes no filters.
    func filtered(_ layer: any TileLayer, name: String) throws(CommandError) -> any TileLayer {
        guard let filter = overrides.filter else { return layer }
        let members = (layer as? any CompositeLayer)?.layers ?? [layer]
        let heatmaps = members.compactMap { $0 as? ServedLayer }
        guard !heatmaps.isEmpty, let taking = layer as? any SettingsTakingLayer else {
            throw .usage("--layer \(name) holds no heatmap to filter: --datetime and --category draw heatmaps only")
        }
        for heatmap in heatmaps {
            do {
                try heatmap.checkFilter(filter, settings: overrides)
            } catch {
                throw .usage(error.description)
            }
        }
        return taking.taking(overrides)
    }
}

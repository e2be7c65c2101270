import HeatmapKit
import HeatmapServer

extension RenderCommand {
    /// Checks that `layer` takes the filters given (`--datetime`, `--category`, `--scale-of`):
    /// it must hold a heatmap (a stack: one of its layers). Each heatmap carries its filters
    /// already, checked against its data when it was made (``FilterArguments/heatmap(name:source:settings:filters:data:)``:
    /// the flags', a configuration layer's own keys over them), as `serve` draws them.
    ///
    /// - Throws: ``CommandError`` (64) for filters given to a layer that takes none.
    func checkFilters(_ layer: any TileLayer, name: String) throws(CommandError) {
        guard overrides.filter != nil else { return }
        let members = (layer as? any CompositeLayer)?.layers ?? [layer]
        guard members.contains(where: { $0 is ServedLayer }) else {
            throw .usage("--layer \(name) holds no heatmap to filter: --datetime and --category draw heatmaps only")
        }
    }
}

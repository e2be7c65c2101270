import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTiles

extension RenderCommand {
    /// Renders one layer as `serve` serves it: the one given, or the `--layer NAME` (a layer, a
    /// stack of the configuration, or `a+b`) among them; each tile the bytes the server answers
    /// (the same layers, drawn by the same code), walked where the layer says tiles may hold
    /// something (a stack: any of its layers'), else over `--bounds`.
    func run(_ layers: LayerArguments) throws(CommandError) {
        let registry: LayerRegistry
        do {
            let (heatmaps, archives, hosted) = try layers.fileLayers()
            registry = try LayerRegistry(
                layers: heatmaps as [any TileLayer] + archives as [any TileLayer] + hosted as [any TileLayer],
                stacks: layers.stacks)
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError("\(error)")
        }
        let name: String
        if let selected {
            name = selected
        } else {
            guard registry.layers.count == 1 else {
                let names = registry.layers.map(\.name).joined(separator: ", ")
                throw .usage("render draws one layer: name it with --layer NAME (one of \(names), or a+b)")
            }
            name = registry.layers[0].name
        }
        let layer: any TileLayer
        switch registry.entry(named: name) {
        case .success(let entry): layer = entry.layer
        case .failure(let failure): throw .usage("--layer \(name): \(failure.message)")
        }
        try checkFilters(layer, name: name)
        let occupancy: TileOccupancy?
        do {
            // A filter keeps fewer points: the tiles that may hold something are the whole layer's.
            occupancy = try (layer as? any OccupancyLayer)?.occupancy(zooms: zooms, scale: scale)
        } catch {
            throw CommandError("finding the tiles of \(name): \(error.description); nothing was written to \(output)")
        }
        guard occupancy != nil || area != nil else {
            throw .usage(
                "layer \(name) cannot say which of its tiles are empty (tiles from a URL or an archive, or a stack "
                    + "holding one): give --bounds W,S,E,N, the area to render")
        }
        let walk = PyramidWalk(occupancy: occupancy, zooms: zooms, area: area)
        let metadata: TileMetadata
        if let heatmap = layer as? ServedLayer {
            metadata = try self.metadata(heatmap)
        } else {
            metadata = self.metadata(of: layer)
        }
        try render(layer: layer, walk: walk, metadata: metadata)
    }

    /// A heatmap's metadata: its points' extent and count, its settings, each zoom's legend (of
    /// the points its filters keep), and its filters: `filter` and `kept` (the points they keep
    /// that weigh something, see ``ServedLayer/keptExtent()``) in the options, the bounds
    /// theirs, and the description saying how many of the points read they keep, as a
    /// table's render says it of its rows.
    func metadata(_ layer: ServedLayer) throws(CommandError) -> TileMetadata {
        let data = layer.current.data
        var options = recorded
        options["points"] = String(data.count)
        let filter = layer.filterDefaults.filter?.query
        let kept: (count: Int, bounds: PointBounds?)?
        do {
            kept = try layer.keptExtent()
        } catch {
            throw CommandError("counting the points the filters keep: \(error.description)")
        }
        if let filter { options["filter"] = filter }
        if let kept { options["kept"] = String(kept.count) }
        let bounds = kept?.bounds ?? data.bounds
        return metadata(
            bounds: bounds, points: data.count, centreLatitude: bounds.map { ($0.south + $0.north) / 2 } ?? 0,
            source: layer.source.isEmpty ? layer.name : LayerArguments.layerName(layer.source), options: options,
            legends: try legends(layer), settings: layer.settings, filter: filter.map { ($0, kept?.count) })
    }

    /// The metadata of any other layer (a stack, an archive, a URL layer): the area rendered,
    /// and what the layer is. A stack's has no legends: its layers keep a colour scale each, so
    /// no one legend says what a composited pixel means; its description says so, and names
    /// the filters its heatmaps draw.
    func metadata(of layer: any TileLayer) -> TileMetadata {
        var bounds = area?.bounds ?? PointBounds(south: -85.0511, west: -180, north: 85.0511, east: 180)
        bounds.south = max(bounds.south, -85.0511)
        bounds.north = min(bounds.north, 85.0511)
        let center = bounds.center
        var options = recorded
        let filters = Set(
            ((layer as? any CompositeLayer)?.layers ?? []).compactMap { member in
                (member as? ServedLayer)?.filterDefaults.filter?.query
            }
        ).sorted()
        if !filters.isEmpty { options["filter"] = filters.joined(separator: " ") }
        let what =
            (layer as? any CompositeLayer).map { stack in
                "Stack of " + stack.layers.map(\.name).joined(separator: ", ")
                    + (filters.isEmpty ? "" : " (heatmaps filtered by \(filters.joined(separator: " and ")))")
                    + "; no legend: each layer keeps its own colour scale (serve's /{stack}/legend.json lists them)"
            } ?? "Tiles of layer \(layer.name)"
        return TileMetadata(
            name: name, description: what, attribution: attribution, bounds: bounds.withoutWrapping,
            center: TileCenter(
                longitude: center.longitude, latitude: center.latitude,
                zoom: min(max(center.zoom, zooms.lowerBound), zooms.upperBound)),
            minZoom: zooms.lowerBound, maxZoom: zooms.upperBound, scale: scale, options: options)
    }
}

import HeatmapCore
import HeatmapKit

extension ServedLayer: TileJSONLayer, LegendLayer {
    /// The heatmap's TileJSON for tiles of `scale`: its bounds are the points' extent padded by
    /// the kernel's reach at the lowest zoom offered (see ``PointBounds/padded(byPixels:atZoom:)``);
    /// the settings given carry into its tile, TileJSON and legend URLs.
    func tileJSON(base: String, settings overrides: SettingOverrides, scale: Int, options: ServerOptions)
        throws(TileService.LookupFailure) -> TileJSON
    {
        let data = current.data
        let query = overrides.isEmpty ? "" : "?" + overrides.query
        let settings = overrides.applied(to: self.settings)
        // In points (pixels at scale 1): a radius in metres is its reach at the lowest zoom.
        let radius =
            settings.radiusMeters == nil
            ? settings.radius
            : (try? heatmap.kernelRadius(zoom: options.minZoom, settings: settings)) ?? settings.radius
        var bounds: [Double] = [-180, -85.0511, 180, 85.0511]
        if let b = data.bounds?.padded(byPixels: radius, atZoom: options.minZoom).withoutWrapping {
            bounds = [b.west, b.south, b.east, b.north]
        }
        var center: [Double] = [0, 0, 1]
        if let c = data.bounds?.center { center = [c.longitude, c.latitude, Double(c.zoom)] }
        let suffix = scale == 1 ? "" : "@\(scale)x"
        var document = TileJSON(
            tilejson: "3.0.0", name: name, description: "Heatmap of \(data.count) points",
            attribution: options.attribution, scheme: "xyz",
            tiles: ["\(base)/\(name)/{z}/{x}/{y}\(suffix).png\(query)"], tileSize: 256 * scale,
            minzoom: options.minZoom, maxzoom: options.maxZoom, bounds: bounds, center: center,
            points: data.count, radius: self.settings.radius, opacity: self.settings.opacity,
            scales: [1, 2, 3].map { "\(base)/\(name)\($0 == 1 ? "" : "@\($0)x").json\(query)" },
            legend: "\(base)/\(name)/legend.json?z={z}\(scale == 1 ? "" : "&scale=\(scale)")"
                + (overrides.isEmpty ? "" : "&" + overrides.query),
            maxPercentile: settings.maximumPercentile)
        if let facets = filterFacets {
            document.timeRange = facets.timeRange.map {
                [TimeParser.format($0.lowerBound), TimeParser.format($0.upperBound)]
            }
            document.categories = facets.dictionaries.map { dictionary in
                CategoryFacet(
                    column: dictionary.column,
                    values: dictionary.mostFrequent(100).map { CategoryFacet.Value(value: $0.value, count: $0.count) },
                    distinct: dictionary.values.count)
            }
        }
        return document
    }

    /// "heatmap".
    var legendKind: String { "heatmap" }

    /// The colour scale of the query's zoom with its values, for the layer's settings with the
    /// query's over them (M(z) is computed first if not known).
    func legend(_ query: LegendQuery, base: String) throws -> LayerLegend {
        var layer = heatmap
        var drawing = query.overrides.applied(to: settings)
        if let filter = filterDefaults.merging(query.overrides).filter {
            // The legend of the points the filter keeps, with the M(z) its tiles use.
            let kept: HeatmapTileLayer?
            do throws(HeatmapError) {
                let (views, resolved) = try resolve(filter, drawing: drawing)
                kept = try views.layer(for: resolved)
                drawing = try heatmap.filterSettings(drawing, scale: filter.scale, zoom: query.zoom, scale: query.scale)
            } catch {
                guard case .invalidFilter = error else { throw error }
                throw TileService.LookupFailure(status: .badRequest, message: error.description)
            }
            guard let kept else {
                throw TileService.LookupFailure(
                    status: .notFound, message: "layer \(name): the filter \(query.overrides.query) keeps no point")
            }
            layer = kept
        }
        let legend = try layer.legend(zoom: query.zoom, scale: query.scale, settings: drawing, stops: query.stops)
        return .drawn(legend, LegendDocument(legend, layer: name, query: query, base: base))
    }
}

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
    /// query's over them (M(z) is computed first if not known); 404 when its filters keep no point.
    func legend(_ query: LegendQuery, base: String) throws -> LayerLegend {
        let found: Legend?
        do throws(HeatmapError) {
            found = try legend(zoom: query.zoom, scale: query.scale, settings: query.overrides, stops: query.stops)
        } catch {
            guard case .invalidFilter = error else { throw error }
            throw TileService.LookupFailure(status: .badRequest, message: error.description)
        }
        guard let legend = found else {
            throw TileService.LookupFailure(
                status: .notFound, message: "layer \(name): the filter \(query.overrides.query) keeps no point")
        }
        return .drawn(legend, LegendDocument(legend, layer: name, query: query, base: base))
    }

    /// The legend of `zoom` and `scale` as the layer's tiles are coloured with `overrides` over
    /// its own settings: with filters (the request's over the layer's own), of the points they
    /// keep with the M(z) their tiles use (``drawnFiltered(_:filter:settings:)``); `nil` when
    /// they keep none. The legend route's and `heatmap render`'s metadata's.
    ///
    /// - Throws: ``HeatmapError/invalidFilter(_:)`` naming what the data lack, or the data's failure.
    package func legend(zoom: Int, scale: Int, settings overrides: SettingOverrides, stops: Int = Legend.defaultStops)
        throws(HeatmapError) -> Legend?
    {
        var layer = heatmap
        var drawing = overrides.applied(to: settings)
        if let filter = filterDefaults.merging(overrides).filter {
            let (views, resolved) = try resolve(filter, drawing: drawing)
            guard let kept = try views.layer(for: resolved) else { return nil }
            drawing = try heatmap.filterSettings(drawing, scale: filter.scale, zoom: zoom, scale: scale)
            layer = kept
        }
        return try layer.legend(zoom: zoom, scale: scale, settings: drawing, stops: stops)
    }
}

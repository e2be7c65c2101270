import HeatmapCore
import HeatmapKit

/// The served heatmap filtered by a request's `datetime`, `category` and `scale-of` (issue 28):
/// each filter's points drawn by their own layer, with their own M(z), from the data's
/// ``FilteredLayers`` (a bounded cache, counted in `/metrics`); drawn on the render pool like
/// every tile of points in memory. Live points carrying times and categories join the views
/// (``change(_:filtered:removing:)``), which drops the cached filters they alter.
extension ServedLayer {
    /// The time range and category values of the data, or `nil` when they were read without.
    var filterFacets: FilterFacets? { views.withLock { $0 }?.facets }

    /// The filter cache's counts, or `nil` for data without times or categories.
    var filterCounts: FilteredLayers.Counts? { views.withLock { $0 }?.counts }

    /// The data's views and `request` resolved against them.
    ///
    /// - Throws: ``HeatmapError/invalidFilter(_:)`` naming the column or value the data lack,
    ///   data read without times or categories, or the mean.
    func resolve(_ request: LayerFilterRequest, drawing: HeatmapSettings) throws(HeatmapError)
        -> (views: FilteredLayers, filter: PointFilter)
    {
        guard let views = views.withLock({ $0 }) else {
            throw .invalidFilter(
                "layer \(name) has no times or categories to filter by: serve it with --time COL or --categories COL")
        }
        guard drawing.aggregate == .sum else {
            throw .invalidFilter(
                "layer \(name): the mean does not take datetime or category (its index keeps no times or categories)")
        }
        if !request.window.isAll, views.facets.timeRange == nil {
            throw .invalidFilter("layer \(name) has no times: datetime needs the layer read with --time COL")
        }
        do {
            return (views, try request.resolved(against: views.facets))
        } catch {
            throw .invalidFilter(error.description)
        }
    }

    /// The tile of the points `request` keeps: no tile when it keeps none; coloured by their
    /// M(z), or with `scale-of=all` by the layer's.
    func drawnFiltered(_ request: TileRequest, filter: LayerFilterRequest, settings: SettingOverrides)
        throws(HeatmapError) -> RenderedTile
    {
        let drawing = settings.applied(to: self.settings)
        let generation = self.generation
        let (views, resolved) = try resolve(filter, drawing: drawing)
        guard let layer = try views.layer(for: resolved) else {
            return RenderedTile(
                .noTile,
                dependencies: .one(
                    TileDependency(layer: self, drawnAt: generation, normalization: nil, settings: settings)))
        }
        let final = try heatmap.filterSettings(drawing, scale: filter.scale, zoom: request.zoom, scale: request.scale)
        let drawn = try layer.drawTile(
            x: request.x, y: request.y, zoom: request.zoom, scale: request.scale, settings: final)
        // The colours depend on M(z), the layer's (scale-of=all) or the filter's, which live
        // points move: a tile they do not reach stands while it holds (``filteredNormalization``).
        return RenderedTile(
            drawn.result,
            dependencies: .one(
                TileDependency(
                    layer: self, drawnAt: generation, normalization: drawn.normalization, settings: settings)))
    }

    /// M(z) of the points `filter` keeps now, with `settings` (as ``drawnFiltered(_:filter:settings:)``
    /// colours them): `nil` when not known without waiting (`waiting` false and the filter not
    /// cached or its M(z) not computed), or when the filter keeps nothing now.
    func filteredNormalization(
        _ filter: LayerFilterRequest, settings: HeatmapSettings, zoom: Int, scale: Int, waiting: Bool
    ) -> Double? {
        guard let (views, resolved) = try? resolve(filter, drawing: settings) else { return nil }
        let found = waiting ? try? views.layer(for: resolved) : views.cachedLayer(for: resolved)
        guard let layer = found ?? nil,
            let final = try? heatmap.filterSettings(settings, scale: filter.scale, zoom: zoom, scale: scale)
        else { return nil }
        return waiting
            ? try? layer.normalizationValue(zoom: zoom, scale: scale, settings: final)
            : try? layer.normalizationIfReady(zoom: zoom, scale: scale, settings: final)
    }
}

extension ServedLayer {
    /// The heatmap of the points the layer's filters keep, with its own settings (the
    /// intensities of `heatmap tile --format intensity`, which no colour scale changes): the
    /// whole ``heatmap`` without filters, `nil` when they keep no point.
    ///
    /// - Throws: ``HeatmapError`` naming what the data lack, or the data's failure.
    package func keptHeatmap() throws(HeatmapError) -> HeatmapTileLayer? {
        guard let filter = filterDefaults.filter else { return heatmap }
        let (views, resolved) = try resolve(filter, drawing: settings)
        return try views.layer(for: resolved)
    }

    /// The points the layer's filters keep that weigh something (those its tiles draw; a point
    /// of weight 0 is not counted), with live points added: their number and extent (`nil`
    /// for none), for `render`'s metadata as a table's kept rows give them. `nil` without
    /// filters, or for data whose kept points are not in memory (a table counts its own).
    ///
    /// - Throws: ``HeatmapError`` naming what the data lack, or the data's failure.
    /// - Complexity: O(points kept), and the filter's masked copies built again.
    package func keptExtent() throws(HeatmapError) -> (count: Int, bounds: PointBounds?)? {
        guard let filter = filterDefaults.filter else { return nil }
        let (views, resolved) = try resolve(filter, drawing: settings)
        guard let points = try views.source.filteredSource(by: resolved).source as? FilteredPoints else { return nil }
        let drawn = points.drawnPoints
        return (drawn.count, PointBounds(of: drawn.indexes))
    }

    /// Checks that `filter` applies to the data with `settings` over the layer's own (for the
    /// command's `render`, before it writes anything).
    ///
    /// - Throws: ``HeatmapError/invalidFilter(_:)`` naming what the data lack.
    package func checkFilter(_ filter: LayerFilterRequest, settings: SettingOverrides) throws(HeatmapError) {
        _ = try resolve(filter, drawing: settings.applied(to: self.settings))
    }
}

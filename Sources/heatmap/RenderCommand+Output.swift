import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTiles

extension RenderCommand {
    /// Each zoom's legend, for the metadata (M(z) of each zoom, which the render needs anyway),
    /// as its tiles are coloured: with the filters (``ServedLayer/legend(zoom:scale:settings:stops:)``),
    /// of the points they keep, none for a zoom where they keep none.
    ///
    /// - Throws: ``CommandError`` (64) for filters the data cannot take, else the data's failure.
    func legends(_ layer: ServedLayer) throws(CommandError) -> [String: TileLegend] {
        try legends { (zoom) throws(HeatmapError) in
            try layer.legend(zoom: zoom, scale: scale, settings: SettingOverrides())
        }
    }

    /// Each zoom's legend that `legend` gives (`nil`: none for that zoom).
    func legends(_ legend: (Int) throws(HeatmapError) -> Legend?) throws(CommandError) -> [String: TileLegend] {
        var legends: [String: TileLegend] = [:]
        for zoom in zooms {
            do {
                legends[String(zoom)] = try legend(zoom).map(TileLegend.init)
            } catch .invalidFilter(let message) {
                throw .usage(message)
            } catch {
                // Before any tile: the output is not opened yet.
                throw CommandError(
                    "the colour scale of zoom \(zoom) (M(z), found before the tiles): \(error.description); "
                        + "nothing was written to \(output)")
            }
        }
        return legends
    }

    /// The archive's metadata for `points` whose bounds are `bounds`, from `source` (named in
    /// the description), with the recorded `options`. With a `filter` (its query), the
    /// description says it and how many of the `points` it keeps (`kept`, when known).
    func metadata(
        bounds dataBounds: PointBounds?, points: Int, centreLatitude centre: Double, source: String,
        options: [String: String], legends: [String: TileLegend]?, settings: HeatmapSettings? = nil,
        filter: (query: String, kept: Int?)? = nil
    ) -> TileMetadata {
        let settings = settings ?? self.settings
        var padding = settings.radius
        if settings.radiusMeters != nil {
            // The reach at the lowest zoom, in points (pixels at scale 1).
            padding = (try? settings.kernelRadius(zoom: zooms.lowerBound, scale: 1, centreLatitude: centre)) ?? padding
        }
        var bounds =
            dataBounds.map { $0.padded(byPixels: padding, atZoom: zooms.lowerBound) }
            ?? PointBounds(south: -85.0511, west: -180, north: 85.0511, east: 180)
        if let area { bounds = area.bounds }
        bounds.south = max(bounds.south, -85.0511)
        bounds.north = min(bounds.north, 85.0511)
        let center = bounds.center
        // MBTiles' and PMTiles' bounds may not wrap (GDAL ignores such bounds, `pmtiles verify`
        // refuses them): across the antimeridian they are the whole width, as TileJSON's are;
        // the centre stays on the data.
        bounds = bounds.withoutWrapping
        let gradient = gradientText == "default" ? "" : ", gradient \(gradientText)"
        let radius = settings.radiusMeters.map { "\($0) m" } ?? String(settings.radius)
        let what =
            filter.map { filter in
                filter.kept.map { "\($0) of \(points) points from \(source) that \(filter.query) keeps" }
                    ?? "the points from \(source) that \(filter.query) keeps (of \(points) read)"
            } ?? "\(points) points from \(source)"
        var metadata = TileMetadata(
            name: name,
            description: "Heatmap of \(what) (radius \(radius)\(gradient), opacity \(settings.opacity))",
            attribution: attribution, bounds: bounds,
            center: TileCenter(
                longitude: center.longitude, latitude: center.latitude,
                zoom: min(max(center.zoom, zooms.lowerBound), zooms.upperBound)),
            minZoom: zooms.lowerBound, maxZoom: zooms.upperBound, scale: scale, options: options)
        metadata.legends = legends
        if format.format != .png { metadata.format = format.format }
        return metadata
    }

    func makeSink(_ metadata: TileMetadata) throws(CommandError) -> any TileSink {
        do {
            switch kind {
            case .mbtiles: return try MBTilesWriter(path: output, metadata: metadata, mode: mode)
            case .pmtiles: return try PMTilesWriter(path: output, metadata: metadata, mode: mode)
            case .folder: return try TileFolderWriter(path: output, metadata: metadata, mode: mode)
            }
        } catch {
            throw CommandError(error.description)
        }
    }
}

import Foundation
import HeatmapKit
import HeatmapServer
import HeatmapTiles

extension RenderCommand {
    func metadata(_ file: PointFile) -> TileMetadata {
        var bounds =
            file.report.bounds.map { Self.padded($0, pixels: settings.radius, zoom: zooms.lowerBound) }
            ?? PointBounds(south: -85.0511, west: -180, north: 85.0511, east: 180)
        if let area { bounds = area.bounds }
        bounds.south = max(bounds.south, -85.0511)
        bounds.north = min(bounds.north, 85.0511)
        let center = bounds.center
        var options = recorded
        options["points"] = String(file.index.count)
        let gradient = gradientText == "default" ? "" : ", gradient \(gradientText)"
        return TileMetadata(
            name: name,
            description:
                "Heatmap of \(file.index.count) points from \(ServeCommand.layerName(dataPath)) (radius \(settings.radius)\(gradient), opacity \(settings.opacity))",
            attribution: attribution, bounds: bounds,
            center: TileCenter(
                longitude: center.longitude, latitude: center.latitude,
                zoom: min(max(center.zoom, zooms.lowerBound), zooms.upperBound)),
            minZoom: zooms.lowerBound, maxZoom: zooms.upperBound, scale: scale, options: options)
    }

    /// The data's extent grown by the kernel's reach at the lowest zoom (where it is widest), so
    /// that the bounds hold every pixel drawn at every zoom (clients skip tiles outside them).
    static func padded(_ b: PointBounds, pixels: Int, zoom: Int) -> PointBounds {
        let world = Double(256 << zoom)
        let margin = Double(pixels) / world
        let degrees = margin * 360
        let north = Double(WebMercator.unitY(latitude: b.north)) / 4_294_967_296 - margin
        let south = Double(WebMercator.unitY(latitude: b.south)) / 4_294_967_296 + margin
        var west = b.west - degrees
        var east = b.east + degrees
        let width = b.west <= b.east ? b.east - b.west : b.east + 360 - b.west
        if width + 2 * degrees >= 360 || (b.west <= b.east && (west < -180 || east > 180)) {
            west = max(west, -180)
            east = min(east, 180)
            if width + 2 * degrees >= 360 { (west, east) = (-180, 180) }
        } else {
            if west < -180 { west += 360 }
            if east > 180 { east -= 360 }
        }
        return PointBounds(
            south: WebMercator.latitude(worldFraction: min(1, south)), west: west,
            north: WebMercator.latitude(worldFraction: max(0, north)), east: east)
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

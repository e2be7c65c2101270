import HeatmapCore
import HeatmapKit

extension InfoCommand {
    /// `--radius-meters M` and `--radius-latitude LAT`, checked as `tile` checks them; the
    /// latitude only with metres, and metres not with `--radius`.
    static func meters(_ list: ArgumentList, given: HeatmapSettings) throws(CommandError) -> (Double?, Double?) {
        let meters = given.radiusMeters
        let latitude = given.radiusLatitude
        if latitude != nil, meters == nil { throw .usage("--radius-latitude needs --radius-meters") }
        if meters != nil, list.text("radius") != nil {
            throw .usage("--radius and --radius-meters are two radii: give one")
        }
        var settings = HeatmapSettings(radius: given.radius)
        settings.radiusMeters = meters
        settings.radiusLatitude = latitude
        do {
            try settings.validate()
        } catch {
            throw .usage("--radius-meters: \(error.description)")
        }
        return (meters, latitude)
    }

    /// The settings M(z) is found with: the radius in points, or in metres.
    var settings: HeatmapSettings {
        var settings = HeatmapSettings(radius: radius)
        settings.radiusMeters = radiusMeters
        settings.radiusLatitude = radiusLatitude
        return settings
    }

    /// M(z) of each `--zoom` with the reach it was found with.
    func normalizations(_ layer: HeatmapTileLayer) throws(CommandError) -> [Output.Normalization] {
        var values: [Output.Normalization] = []
        for zoom in zooms {
            do {
                let value = try layer.normalization(zoom: zoom, scale: scale)
                values.append(.init(zoom: zoom, value: value, reach: try layer.kernelRadius(zoom: zoom, scale: scale)))
            } catch {
                throw CommandError(error.description)
            }
        }
        return values
    }

    /// The suggested zooms: for the radius in points, ``PointFileReport/suggestedZoomRange(radius:)``;
    /// for metres, from the same lowest zoom (the data fit in about a tile) to the last zoom
    /// whose reach is not held at 128 points (beyond it the heatmap stops growing with the map),
    /// 22 when none is. A radius in metres grows with the map as the spacing between points
    /// does, so "points stand apart" holds at every zoom or none and cannot end the range.
    func suggestedZooms(_ report: PointFileReport, latitude: Double) throws(CommandError) -> ClosedRange<Int> {
        try suggestedZooms(points: report.suggestedZoomRange(radius: radius), latitude: latitude)
    }

    /// The suggested zooms from those for the radius in points (see the other
    /// `suggestedZooms`), the metres measured at `latitude` unless `--radius-latitude` says.
    func suggestedZooms(points: ClosedRange<Int>, latitude: Double) throws(CommandError) -> ClosedRange<Int> {
        guard let radiusMeters else { return points }
        do {
            let ground = try GroundRadius(meters: radiusMeters, latitude: radiusLatitude ?? latitude)
            let held = (points.lowerBound...WebMercator.maximumZoom).first { ground.isClamped(zoom: $0, scale: 1) }
            return points.lowerBound...max(points.lowerBound, (held ?? WebMercator.maximumZoom + 1) - 1)
        } catch {
            throw CommandError(error.description)
        }
    }

    /// The middle of the index's latitudes, where metres are measured by default (0 without points).
    static func middle(_ index: PointIndex) -> Double {
        index.latitudeRange.map { ($0.lowerBound + $0.upperBound) / 2 } ?? 0
    }

    /// `radius 20`, or `radius 500.0 m at -37.5°` with `= R px` when the reach is known.
    static func radiusText(radius: Int, meters: Double?, latitude: Double?, reach: Int? = nil) -> String {
        guard let meters else { return "radius \(radius)" }
        let at = latitude.map { " at \($0)°" } ?? ""
        return "radius \(meters) m\(at)" + (reach.map { " = \($0) px" } ?? "")
    }

    static func radiusText(_ output: Output, reach: Int? = nil) -> String {
        radiusText(radius: output.radius, meters: output.radiusMeters, latitude: output.radiusLatitude, reach: reach)
    }
}

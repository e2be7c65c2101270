extension DataSet {
    /// The middle of the data's latitudes, (south + north) / 2 in degrees: the default
    /// reference latitude of a radius in metres (0 without points). Computed once.
    ///
    /// - Throws: ``HeatmapError/invalidGroundRadius(_:)`` for a source other than points
    ///   (a database), whose latitudes are not at hand: a reference latitude must be given.
    func centreLatitude() throws(HeatmapError) -> Double {
        if let known = centre.withLock({ $0 }) { return known }
        if let live {
            // Points appended and removed while running: the main index's and the recent ones'.
            let ranges = [live.base.latitudeRange, live.delta.latitudeRange].compactMap { $0 }
            let south = ranges.map(\.lowerBound).min()
            let north = ranges.map(\.upperBound).max()
            let value = south.flatMap { s in north.map { (s + $0) / 2 } } ?? 0
            centre.withLock { $0 = value }
            return value
        }
        guard case .index(let index) = try source() else {
            throw .invalidGroundRadius(
                "a source without points in memory has no centre latitude to measure metres at: "
                    + "give one (radiusLatitude, --radius-latitude, radius-latitude=)")
        }
        let value = index.latitudeRange.map { ($0.lowerBound + $0.upperBound) / 2 } ?? 0
        centre.withLock { $0 = value }
        return value
    }
}

extension HeatmapTileLayer.Snapshot {
    /// R, the kernel's reach in pixels at a zoom and scale for these settings and data.
    func reach(zoom: Int, scale: Int) throws(HeatmapError) -> Int {
        guard settings.radiusMeters != nil else { return settings.radius * scale }
        let latitude: Double
        if let given = settings.radiusLatitude {
            latitude = given
        } else {
            latitude = try data.centreLatitude()
        }
        return try settings.kernelRadius(zoom: zoom, scale: scale, centreLatitude: latitude)
    }
}

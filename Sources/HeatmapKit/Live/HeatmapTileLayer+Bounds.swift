import HeatmapCore

extension HeatmapTileLayer {
    /// The extent of the layer's points as its index holds them (within 1e-7° of the points
    /// given; `west > east` across the antimeridian, see
    /// ``PointIndex/longitudeInterval(of:)``), or `nil` without points or for a layer drawn
    /// from another source. After live removals it is that of the points left.
    ///
    /// - Complexity: O(n), a pass over the points.
    package var pointBounds: PointBounds? {
        let data = state.withLock { $0.data }
        let indexes: [PointIndex]
        if let live = data.live {
            indexes = [live.base, live.delta]
        } else if !data.isExternal, let index = try? data.index() {
            indexes = [index]
        } else {
            return nil
        }
        return PointBounds(of: indexes)
    }
}

extension PointBounds {
    /// The extent of `indexes`' points as they hold them (within 1e-7° of the points given;
    /// `west > east` across the antimeridian), or `nil` without points.
    ///
    /// - Complexity: O(n), a pass over the points.
    package init?(of indexes: [PointIndex]) {
        let latitudes = indexes.compactMap(\.latitudeRange)
        guard let south = latitudes.map(\.lowerBound).min(), let north = latitudes.map(\.upperBound).max(),
            let longitudes = PointIndex.longitudeInterval(of: indexes)
        else { return nil }
        self.init(south: south, west: longitudes.west, north: north, east: longitudes.east)
    }
}

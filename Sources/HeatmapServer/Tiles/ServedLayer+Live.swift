import HeatmapKit

extension ServedLayer {
    /// Appends (or removes) points on the running layer, atomically with the generation that
    /// keys the server's cache, so that the next tile request sees them; appended points grow
    /// the bounds of TileJSON. A reload (SIGHUP, a changed file) replaces them with the file's.
    ///
    /// - Throws: ``HeatmapError`` naming the point at fault; nothing is changed then.
    func change(_ points: [WeightedLatLng], removing: Bool) throws(HeatmapError) -> LiveChange {
        try state.withLock { (state) throws(HeatmapError) -> LiveChange in
            let change = removing ? try layer.remove(points) : try layer.add(points)
            var data = state.data
            data.liveCount = change.pointCount
            if !removing { data.bounds = Self.bounds(data.bounds, growing: points) }
            state = (state.generation + 1, data)
            return change
        }
    }

    /// `bounds` grown to hold `points` (kept as they are when they cross the antimeridian).
    static func bounds(_ bounds: PointBounds?, growing points: [WeightedLatLng]) -> PointBounds? {
        guard let first = points.first else { return bounds }
        var box =
            bounds
            ?? PointBounds(
                south: first.coordinate.latitude, west: first.coordinate.longitude,
                north: first.coordinate.latitude, east: first.coordinate.longitude)
        guard box.west <= box.east else { return box }
        for point in points {
            var longitude = point.coordinate.longitude.truncatingRemainder(dividingBy: 360)
            if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
            box.south = min(box.south, point.coordinate.latitude)
            box.north = max(box.north, point.coordinate.latitude)
            box.west = min(box.west, longitude)
            box.east = max(box.east, longitude)
        }
        return box
    }
}

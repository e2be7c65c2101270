import Foundation
import HeatmapKit

/// One loaded data set: its index and where its points lie.
public struct LayerData: Sendable {
    /// The points, indexed.
    public var index: PointIndex
    /// The points' extent; `nil` without points.
    public var bounds: Bounds?

    /// A geographic extent in degrees.
    public struct Bounds: Sendable, Hashable {
        /// Southern edge, latitude.
        public var south: Double
        /// Western edge, longitude.
        public var west: Double
        /// Northern edge, latitude.
        public var north: Double
        /// Eastern edge, longitude.
        public var east: Double

        /// Creates an extent.
        public init(south: Double, west: Double, north: Double, east: Double) {
            self.south = south
            self.west = west
            self.north = north
            self.east = east
        }

        /// The extent of points; `nil` for none.
        public init?(of points: [WeightedLatLng]) {
            guard let first = points.first?.coordinate else { return nil }
            var b = Bounds(south: first.latitude, west: first.longitude, north: first.latitude, east: first.longitude)
            for point in points.dropFirst() {
                let c = point.coordinate
                b.south = min(b.south, c.latitude)
                b.north = max(b.north, c.latitude)
                b.west = min(b.west, c.longitude)
                b.east = max(b.east, c.longitude)
            }
            self = b
        }

        /// The centre, and the zoom at which the extent about fills a 1024-pixel-wide map. An
        /// extent with `west > east` crosses the antimeridian.
        public var center: (longitude: Double, latitude: Double, zoom: Int) {
            let width = west <= east ? east - west : east + 360 - west
            let span = max(width, (north - south) * 1.5, 1e-6)
            let zoom = Int(log2(360 / span * 4).rounded(.down))
            var longitude = west + width / 2
            if longitude > 180 { longitude -= 360 }
            return (longitude, (south + north) / 2, min(max(zoom, 0), 16))
        }
    }

    /// Data from an index and its extent.
    public init(index: PointIndex, bounds: Bounds?) {
        self.index = index
        self.bounds = bounds
    }

    /// Data from points, with their extent.
    ///
    /// - Throws: ``HeatmapError`` for the first invalid point.
    public init(points: [WeightedLatLng]) throws(HeatmapError) {
        index = try PointIndex(points: points)
        bounds = Bounds(of: points)
    }
}

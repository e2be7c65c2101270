import HeatmapCore
import HeatmapKit

/// The tiles of a zoom range that can hold data, found from the layer: a tile is visited only
/// if the layer says it may hold something (``TileOccupancy``: for a heatmap, its area padded
/// by the kernel's reach holds weight, ``WeightPresence``: the in-memory index's cells, or a
/// database's `EXISTS`; for a stack, one of its layers' tiles), and its four children only then
/// (a child's padded area lies inside its parent's), so the walk never enumerates the 4^z
/// grid. A layer that cannot say walks every tile that meets the area. Depth first, so it holds
/// at most 3 tiles a zoom.
public struct PyramidWalk: Sendable {
    /// The zooms whose tiles are returned.
    public let zooms: ClosedRange<Int>
    /// Whether a tile may hold something; `nil`: every tile may.
    let occupancy: TileOccupancy?
    /// Why the walk ended early: the source could not answer (a database lost, say); `nil`
    /// while it answers. ``next()`` returns `nil` from then on.
    public private(set) var failure: HeatmapError?
    let area: TileArea?
    private var stack = [TileCoordinate(zoom: 0, x: 0, y: 0)]

    /// A walk over `zooms` (within 0...22) at a scale and radius in points, within `area` if given.
    ///
    /// - Throws: ``HeatmapError`` for a zoom or scale out of range.
    package init(index: PointIndex, zooms: ClosedRange<Int>, scale: Int, radius: Int, area: TileArea? = nil)
        throws(HeatmapError)
    {
        try self.init(source: index, zooms: zooms, scale: scale, area: area) { _ in radius * scale }
    }

    /// A walk over the in-memory index whose kernel reach in pixels depends on the zoom, as
    /// ``init(source:zooms:scale:area:reach:)``.
    ///
    /// - Throws: ``HeatmapError`` for a zoom or scale out of range.
    package init(
        index: PointIndex, zooms: ClosedRange<Int>, scale: Int, area: TileArea? = nil,
        reach: (Int) throws(HeatmapError) -> Int
    ) throws(HeatmapError) {
        try self.init(source: index, zooms: zooms, scale: scale, area: area, reach: reach)
    }

    /// A walk over any source that says where weight lies (the index, a database table), whose
    /// kernel reach in pixels depends on the zoom (a radius in metres): a tile of
    /// zoom z is padded by R(z), or by more where a finer zoom's reach, halved per zoom up,
    /// is larger, so that a parent's padded area still holds every child's.
    ///
    /// - Throws: ``HeatmapError`` for a zoom or scale out of range.
    package init<Source: WeightPresence>(
        source: Source, zooms: ClosedRange<Int>, scale: Int, area: TileArea? = nil,
        reach: (Int) throws(HeatmapError) -> Int
    ) throws(HeatmapError) {
        let occupancy = try TileOccupancy(zooms: zooms, scale: scale, reach: reach) {
            (rect, space) throws(HeatmapError) in
            do throws(Source.Failure) {
                return try source.holdsWeight(in: rect, space: space)
            } catch {
                throw HeatmapError(sourceError: error)
            }
        }
        self.init(occupancy: occupancy, zooms: zooms, area: area)
    }

    /// A walk over the tiles of `layer` (with its settings) that can hold something: those whose
    /// area padded by the kernel's reach holds weight, within `area` if given.
    ///
    /// - Throws: ``HeatmapError`` for a zoom or scale out of range, or invalid settings or points.
    public init(layer: HeatmapTileLayer, zooms: ClosedRange<Int>, scale: Int, area: TileArea? = nil)
        throws(HeatmapError)
    {
        self.init(occupancy: try layer.occupancy(zooms: zooms, scale: scale), zooms: zooms, area: area)
    }

    /// A walk over the tiles `occupancy` says may hold something (every tile when `nil`), within
    /// `area` if given.
    package init(occupancy: TileOccupancy?, zooms: ClosedRange<Int>, area: TileArea?) {
        self.zooms = zooms
        self.occupancy = occupancy
        self.area = area
    }

    /// The next tile that can hold data, or `nil` at the end.
    package mutating func next() -> TileCoordinate? {
        while let tile = stack.popLast() {
            if let area, !area.contains(tile) { continue }
            do {
                if let occupancy { guard try occupancy.mayHold(tile.zoom, tile.x, tile.y) else { continue } }
            } catch {
                failure = error
                stack.removeAll()
                return nil
            }
            if tile.zoom < zooms.upperBound { stack += tile.children.reversed() }
            if tile.zoom >= zooms.lowerBound { return tile }
        }
        return nil
    }

    /// How many tiles the walk visits, counted by walking it (a copy): about one index query a tile.
    public func count(while proceed: () -> Bool = { true }) -> Int {
        (try? counted(while: proceed)) ?? 0
    }

    /// How many tiles the walk visits, as ``count(while:)``, or the source's failure.
    ///
    /// - Throws: ``HeatmapError`` when the source cannot answer.
    package func counted(while proceed: () -> Bool = { true }) throws(HeatmapError) -> Int {
        var walk = self
        var total = 0
        while walk.next() != nil {
            total += 1
            if total & 1023 == 0, !proceed() { break }
        }
        if let failure = walk.failure { throw failure }
        return total
    }
}

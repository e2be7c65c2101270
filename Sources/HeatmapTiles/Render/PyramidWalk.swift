import HeatmapKit

/// The tiles of a zoom range that can hold data, found from the source: a tile is visited only
/// if its area padded by the kernel's reach holds weight (``WeightPresence``: the in-memory
/// index's cells, or a database's `EXISTS`), and its four children only then (a child's padded
/// area lies inside its parent's), so the walk never enumerates the 4^z grid. Depth first, so
/// it holds at most 3 tiles a zoom.
public struct PyramidWalk: Sendable {
    /// The zooms whose tiles are returned.
    public let zooms: ClosedRange<Int>
    let holdsWeight: @Sendable (PixelRect, PixelSpace) throws(HeatmapError) -> Bool
    /// Why the walk ended early: the source could not answer (a database lost, say); `nil`
    /// while it answers. ``next()`` returns `nil` from then on.
    public private(set) var failure: HeatmapError?
    let spaces: [PixelSpace]
    /// The reach in pixels a tile of each zoom is padded by (index = zoom).
    let reaches: [Int]
    let area: TileArea?
    private var stack = [TileCoordinate(zoom: 0, x: 0, y: 0)]

    /// A walk over `zooms` (within 0...22) at a scale and radius in points, within `area` if given.
    ///
    /// - Throws: ``HeatmapError`` for a zoom or scale out of range.
    public init(index: PointIndex, zooms: ClosedRange<Int>, scale: Int, radius: Int, area: TileArea? = nil)
        throws(HeatmapError)
    {
        try self.init(source: index, zooms: zooms, scale: scale, area: area) { _ in radius * scale }
    }

    /// A walk over the in-memory index whose kernel reach in pixels depends on the zoom, as
    /// ``init(source:zooms:scale:area:reach:)``.
    ///
    /// - Throws: ``HeatmapError`` for a zoom or scale out of range.
    public init(
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
    public init<Source: WeightPresence>(
        source: Source, zooms: ClosedRange<Int>, scale: Int, area: TileArea? = nil,
        reach: (Int) throws(HeatmapError) -> Int
    ) throws(HeatmapError) {
        self.zooms = zooms
        holdsWeight = { (rect, space) throws(HeatmapError) in
            do throws(Source.Failure) {
                return try source.holdsWeight(in: rect, space: space)
            } catch {
                throw HeatmapError(sourceError: error)
            }
        }
        var spaces: [PixelSpace] = []
        for zoom in 0...zooms.upperBound { spaces.append(try PixelSpace(zoom: zoom, scale: scale)) }
        _ = try PixelSpace(zoom: zooms.lowerBound, scale: scale)
        self.spaces = spaces
        var reaches = [Int](repeating: 0, count: zooms.upperBound + 1)
        var finer = 0
        for zoom in (0...zooms.upperBound).reversed() {
            reaches[zoom] = max(try reach(zoom), (finer + 1) / 2)
            finer = reaches[zoom]
        }
        self.reaches = reaches
        self.area = area
    }

    /// The next tile that can hold data, or `nil` at the end.
    public mutating func next() -> TileCoordinate? {
        while let tile = stack.popLast() {
            if let area, !area.contains(tile) { continue }
            let space = spaces[tile.zoom]
            let padded = PixelRect(tileX: tile.x, y: tile.y, in: space).expanded(by: reaches[tile.zoom])
            do {
                guard try holdsWeight(padded, space) else { continue }
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
    public func counted(while proceed: () -> Bool = { true }) throws(HeatmapError) -> Int {
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

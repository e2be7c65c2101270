import HeatmapCore

/// What only some layers do, beside ``TileLayer``: optional capabilities that the server's
/// routes and `heatmap render` are written against, so that no route asks what kind a layer is.
/// A stack has a capability when it can forward it to its layers.

/// A layer drawn with settings given per request (the heatmap, by a tile's query parameters);
/// a stack forwards them to each of its layers that takes them.
package protocol SettingsTakingLayer: TileLayer {
    /// Whether the layer draws with settings given (a stack: whether one of its layers does).
    var takesSettings: Bool { get }
    /// The layer drawn with `overrides` over its own settings.
    func taking(_ overrides: SettingOverrides) -> any TileLayer
}

extension SettingsTakingLayer {
    /// `true`.
    package var takesSettings: Bool { true }
}

/// A layer that can say which tiles hold nothing (the heatmap: no weight within its kernel's
/// reach), so that a render walks only the others.
package protocol OccupancyLayer: TileLayer {
    /// The tiles of `zooms` at `scale` that may hold something, or `nil` when the layer cannot say
    /// (a stack with a layer that cannot).
    ///
    /// - Throws: ``HeatmapError`` for settings or zooms the layer cannot draw.
    func occupancy(zooms: ClosedRange<Int>, scale: Int) throws(HeatmapError) -> TileOccupancy?
}

/// Which tiles may hold something: `false` for a tile promises that it and every tile under it
/// (its children, theirs, …, within the zooms asked for) answer no tile.
package struct TileOccupancy: Sendable {
    /// Whether tile `zoom`/`x`/`y` may hold something; throws when the source cannot answer.
    package let mayHold: @Sendable (_ zoom: Int, _ x: Int, _ y: Int) throws(HeatmapError) -> Bool

    /// A test answered by `mayHold`.
    package init(_ mayHold: @escaping @Sendable (_ zoom: Int, _ x: Int, _ y: Int) throws(HeatmapError) -> Bool) {
        self.mayHold = mayHold
    }

    /// The tiles whose area, padded by the kernel's reach R(z) pixels, holds weight in `source`:
    /// a tile of zoom z is padded by R(z), or by more where a finer zoom's reach, halved per zoom
    /// up, is larger, so that a parent's padded area holds every child's (the promise above).
    ///
    /// - Throws: ``HeatmapError`` for a zoom or scale out of range, or `reach`'s.
    package init(
        zooms: ClosedRange<Int>, scale: Int, reach: (Int) throws(HeatmapError) -> Int,
        holdsWeight: @escaping @Sendable (PixelRect, PixelSpace) throws(HeatmapError) -> Bool
    ) throws(HeatmapError) {
        var spaces: [PixelSpace] = []
        for zoom in 0...zooms.upperBound { spaces.append(try PixelSpace(zoom: zoom, scale: scale)) }
        _ = try PixelSpace(zoom: zooms.lowerBound, scale: scale)
        var reaches = [Int](repeating: 0, count: zooms.upperBound + 1)
        var finer = 0
        for zoom in (0...zooms.upperBound).reversed() {
            reaches[zoom] = max(try reach(zoom), (finer + 1) / 2)
            finer = reaches[zoom]
        }
        let (found, padding) = (spaces, reaches)
        mayHold = { (zoom, x, y) throws(HeatmapError) in
            guard found.indices.contains(zoom) else { return false }
            let space = found[zoom]
            return try holdsWeight(PixelRect(tileX: x, y: y, in: space).expanded(by: padding[zoom]), space)
        }
    }

    /// The tiles any of `parts` may hold something in.
    package static func union(_ parts: [TileOccupancy]) -> TileOccupancy {
        TileOccupancy { (zoom, x, y) throws(HeatmapError) in
            for part in parts where try part.mayHold(zoom, x, y) { return true }
            return false
        }
    }
}

/// A layer made of other layers (a stack), composited from their answers.
package protocol CompositeLayer: TileLayer {
    /// The layers, in the order their answers are given to ``composite(_:answers:)``.
    var layers: [any TileLayer] { get }
    /// The composite of the layers' answers to `request`, as the layer itself would answer.
    func composite(_ request: TileRequest, answers: [TileResult]) throws(TileLayerError) -> TileResult
}

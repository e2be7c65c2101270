extension TileLayer {
    /// A static image of any viewport, drawn from the layer's own tiles, asked for on the
    /// caller's thread: equal, pixel for pixel, to the same rectangle cut from its tiles laid
    /// side by side (the layer's opacity applied unless its images carry it; tiles of another
    /// size scaled by nearest neighbour to `256 × scale`).
    ///
    /// - Returns: the image, transparent where the layer has no tile; `nil` when a tile is not
    ///   available yet (ask again later).
    /// - Throws: ``TileLayerError`` for an invalid viewport or a tile the layer could not give.
    public func imageFor(_ viewport: Viewport) throws -> RGBAImage? {
        try viewport.validate()
        let plan = StaticImagePlan(viewport)
        var tiles: [StaticImagePlan.Tile: RGBAImage] = [:]
        var waiting = false
        for tile in plan.tiles {
            let answer = try tileFor(TileRequest(x: tile.x, y: tile.y, zoom: viewport.zoom, scale: viewport.scale))
            switch answer {
            case .image(let png): tiles[tile] = try plan.flatten(png, of: self)
            case .noTile: break
            case .notAvailableYet: waiting = true
            }
        }
        return waiting ? nil : plan.draw(tiles)
    }

    /// ``imageFor(_:)``, asking for every tile at once.
    public func image(_ viewport: Viewport) async throws -> RGBAImage? {
        try viewport.validate()
        let plan = StaticImagePlan(viewport)
        let answers = try await withThrowingTaskGroup(of: (StaticImagePlan.Tile, TileResult).self) { group in
            for tile in plan.tiles {
                group.addTask {
                    (
                        tile,
                        try await self.tile(
                            TileRequest(x: tile.x, y: tile.y, zoom: viewport.zoom, scale: viewport.scale))
                    )
                }
            }
            var answers: [(StaticImagePlan.Tile, TileResult)] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
        var tiles: [StaticImagePlan.Tile: RGBAImage] = [:]
        for (tile, answer) in answers {
            switch answer {
            case .image(let png): tiles[tile] = try plan.flatten(png, of: self)
            case .noTile: break
            case .notAvailableYet: return nil
            }
        }
        return plan.draw(tiles)
    }
}

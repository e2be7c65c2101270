/// The MBTiles 1.3 tables as ``MBTilesWriter`` makes them: `metadata`, and `tiles` as a view of
/// `map` (one row a tile, TMS rows, unique per tile) joined with `images` (one row per distinct
/// PNG), the deduplicated layout the specification allows, so that identical tiles share storage.
enum MBTilesSchema {
    static let create = """
        CREATE TABLE metadata (name TEXT, value TEXT);
        CREATE UNIQUE INDEX metadata_name ON metadata (name);
        CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT);
        CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row);
        CREATE TABLE images (tile_data BLOB, tile_id TEXT);
        CREATE UNIQUE INDEX images_id ON images (tile_id);
        CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column,
            map.tile_row AS tile_row, images.tile_data AS tile_data
            FROM map JOIN images ON images.tile_id = map.tile_id;
        """

    /// The metadata rows of MBTiles 1.3 for a raster overlay, plus the tile size and the options.
    static func rows(_ metadata: TileMetadata) -> [(String, String)] {
        let b = metadata.bounds
        let c = metadata.center
        let legends = metadata.legendsJSON.map { [("json", "{\"heatmap_legends\":\($0)}")] } ?? []
        return legends + [
            ("name", metadata.name), ("format", metadata.imageFormat.rawValue), ("type", "overlay"),
            ("bounds", "\(b.west),\(b.south),\(b.east),\(b.north)"),
            ("center", "\(c.longitude),\(c.latitude),\(c.zoom)"),
            ("minzoom", String(metadata.minZoom)), ("maxzoom", String(metadata.maxZoom)),
            ("description", metadata.description), ("attribution", metadata.attribution),
            ("scale", String(metadata.scale)), ("tilesize", String(metadata.tileSize)),
            ("heatmap_options", metadata.optionsJSON),
        ]
    }
}

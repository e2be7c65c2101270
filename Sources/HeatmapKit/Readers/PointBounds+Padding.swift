import HeatmapCore

extension PointBounds {
    /// The box grown by `pixels` (the kernel's reach: a layer's radius) at `zoom`, in 256-pixel
    /// tiles, so that it holds every pixel a point inside it colours at `zoom` and every deeper
    /// zoom (where the same reach is fewer degrees). Clients skip tiles outside TileJSON's and
    /// MBTiles' bounds, so `heatmap render` and `heatmap serve` both publish this box.
    ///
    /// Longitudes wrap: a box that grows past ±180° comes back as one that crosses the
    /// antimeridian (`west > east`), and one that would span 360° or more is the whole width.
    /// Latitudes are grown in Web Mercator (where pixels are) and end at the poles' ±85.0511°.
    package func padded(byPixels pixels: Int, atZoom zoom: Int) -> PointBounds {
        let world = 256 * Double(1 << min(max(zoom, 0), WebMercator.maximumZoom))
        let margin = Double(max(pixels, 0)) / world
        let degrees = margin * 360
        let north = Double(WebMercator.unitY(latitude: self.north)) / 4_294_967_296 - margin
        let south = Double(WebMercator.unitY(latitude: self.south)) / 4_294_967_296 + margin
        var west = self.west - degrees
        var east = self.east + degrees
        if longitudeSpan + 2 * degrees >= 360 {
            (west, east) = (-180, 180)
        } else {
            if west < -180 { west += 360 }
            if east > 180 { east -= 360 }
        }
        return PointBounds(
            south: WebMercator.latitude(worldFraction: min(1, south)), west: west,
            north: WebMercator.latitude(worldFraction: max(0, north)), east: east)
    }

    /// The box as TileJSON may give it: TileJSON's bounds must not wrap around the antimeridian,
    /// so a box that crosses it (`west > east`) becomes the whole width, -180...180 (a client then
    /// asks for a few tiles more, never misses one that draws).
    package var withoutWrapping: PointBounds {
        crossesAntimeridian ? PointBounds(south: south, west: -180, north: north, east: 180) : self
    }
}

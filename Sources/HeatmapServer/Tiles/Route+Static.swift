import HeatmapKit

extension Route {
    /// `/static/{layer}/{lon},{lat},{zoom}/{width}x{height}[@2x|@3x].png` (parts after the
    /// leading slash), or `nil` when the path is not of that shape (a tile of a layer named
    /// `static` has no commas).
    static func parseStatic(_ parts: [Substring]) -> Route? {
        guard parts.count == 4, parts[0] == "static", parts[2].contains(","), parts[3].hasSuffix(".png") else {
            return nil
        }
        let usage = "a static image is /static/LAYER/LON,LAT,ZOOM/WIDTHxHEIGHT.png (@2x.png for high DPI)"
        let place = parts[2].split(separator: ",", omittingEmptySubsequences: false)
        var size = parts[3].dropLast(4)
        var scale = 1
        for (suffix, value) in [("@1x", 1), ("@2x", 2), ("@3x", 3)] where size.hasSuffix(suffix) {
            size = size.dropLast(3)
            scale = value
        }
        let sides = size.split(separator: "x", omittingEmptySubsequences: false)
        guard place.count == 3, sides.count == 2, place[0].utf8.count <= 32, place[1].utf8.count <= 32,
            let longitude = Double(place[0]), let latitude = Double(place[1]), longitude.isFinite, latitude.isFinite,
            let zoom = number(place[2]), let width = number(sides[0]), let height = number(sides[1])
        else { return .badStatic(usage) }
        let viewport = Viewport(
            center: Coordinate(latitude: latitude, longitude: longitude), zoom: zoom, width: width, height: height,
            scale: scale)
        return .staticImage(layer: String(parts[1]), viewport: viewport)
    }
}

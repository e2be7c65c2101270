import Foundation

/// Leaflet's files from Debian's `libjs-leaflet`, read once at start: the only files the
/// server sends, looked up by exact name, so no path can reach anything else.
struct StaticAssets: Sendable {
    struct File: Sendable {
        var bytes: [UInt8]
        var contentType: String
    }

    /// By name under `/leaflet/`: `leaflet.js`, `leaflet.css`, `images/NAME.png`.
    let files: [String: File]

    var hasLeaflet: Bool { files["leaflet.js"] != nil && files["leaflet.css"] != nil }

    init(leafletDirectory: String?) {
        var files: [String: File] = [:]
        guard let directory = leafletDirectory else {
            self.files = [:]
            return
        }
        let manager = FileManager.default
        for (name, type) in [("leaflet.js", "text/javascript"), ("leaflet.css", "text/css")] {
            if let data = manager.contents(atPath: directory + "/" + name) {
                files[name] = File(bytes: Array(data), contentType: type + "; charset=utf-8")
            }
        }
        let images = (try? manager.contentsOfDirectory(atPath: directory + "/images")) ?? []
        for image in images where image.hasSuffix(".png") && ServedLayer.isValidName(image) {
            if let data = manager.contents(atPath: directory + "/images/" + image), data.count < 1 << 20 {
                files["images/" + image] = File(bytes: Array(data), contentType: "image/png")
            }
        }
        self.files = files
    }
}

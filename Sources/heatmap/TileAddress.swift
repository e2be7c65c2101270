/// A tile named as `z/x/y`, with an optional `@2x` or `@3x` scale and `.png` suffix.
struct TileAddress: Equatable {
    var zoom: Int
    var x: Int
    var y: Int
    var scale: Int

    init(parsing text: String) throws(CommandError) {
        var rest = Substring(text)
        if rest.hasSuffix(".png") { rest = rest.dropLast(4) }
        scale = 1
        for (suffix, value) in [("@2x", 2), ("@3x", 3), ("@1x", 1)] where rest.hasSuffix(suffix) {
            rest = rest.dropLast(3)
            scale = value
        }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let z = Int(parts[0]), let x = Int(parts[1]), let y = Int(parts[2]) else {
            throw .usage(
                "the tile must be Z/X/Y with whole numbers, optionally followed by @2x or @3x; got \"\(text)\"")
        }
        zoom = z
        self.x = x
        self.y = y
    }
}

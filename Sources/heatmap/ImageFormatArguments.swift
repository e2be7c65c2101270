import HeatmapKit
import HeatmapTiles
import HeatmapWebP

/// `--format png|webp` and `--webp-quality N`, which `tile`, `image` and `render` share: PNG
/// (a palette image whenever the tile allows), or WebP, lossless unless a quality is given.
struct ImageFormatArguments: Sendable, Hashable {
    /// The option names, each taking a value.
    static let valued: Set<String> = Set(["format"] + SettingsSchema.encoding.map(\.name))

    /// The lines of `--help` that explain them (`extra`: another format the command takes);
    /// `--webp-quality`'s from its row of ``SettingsSchema``.
    static func help(extra: String = "") -> String {
        "  --format F         png (default)\(extra) or webp: lossless WebP, the same pixels\n"
            + SettingArguments.help(SettingsSchema.encoding)
    }

    var format: TileImageFormat
    /// With WebP, the lossy quality; `nil` for lossless.
    var webpQuality: Int?

    /// The options given; `others` are further values `--format` takes (tile's `intensity`),
    /// returned as `nil`.
    ///
    /// - Throws: ``CommandError`` naming the option and what it takes.
    static func parse(_ list: ArgumentList, others: [String] = []) throws(CommandError) -> ImageFormatArguments? {
        let text = list.text("format") ?? "png"
        var quality: Int?
        if let given = list.text(SettingsSchema.webpQuality.name) {
            do {
                quality = try SettingsSchema.webpQuality(given)
            } catch {
                throw .usage(error.description)
            }
        }
        if others.contains(text) {
            guard quality == nil else { throw .usage("--webp-quality goes with --format webp") }
            return nil
        }
        guard let format = TileImageFormat(rawValue: text) else {
            let names = (["png"] + others + ["webp"]).joined(separator: ", ")
            throw .usage("--format is one of \(names), got \"\(text)\"")
        }
        guard format == .webp || quality == nil else { throw .usage("--webp-quality goes with --format webp") }
        return ImageFormatArguments(format: format, webpQuality: quality)
    }

    /// The encoder of WebP output.
    var webp: WebPEncoder { WebPEncoder(quality: webpQuality) }

    /// `png` unchanged, or its WebP.
    ///
    /// - Throws: ``CommandError`` when the WebP cannot be made.
    func bytes(ofPNG png: [UInt8]) throws(CommandError) -> [UInt8] {
        guard format == .webp else { return png }
        do {
            return try webp.encode(png: png)
        } catch {
            throw CommandError(error.description)
        }
    }

    /// What a render records of the format, so that a resumed render uses the same: nothing
    /// for PNG (as archives before WebP), `format` and `webp-quality` for WebP.
    var recorded: [String: String] {
        guard format == .webp else { return [:] }
        return ["format": "webp", "webp-quality": webpQuality.map(String.init) ?? "lossless"]
    }
}

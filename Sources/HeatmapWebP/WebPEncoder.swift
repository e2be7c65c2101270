import CWebP
import HeatmapKit

/// A failure to encode a WebP image, with libwebp's reason.
public struct WebPError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What went wrong.
    public let message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The ``message``.
    public var description: String { message }
}

/// Writes ``RGBAImage``s as WebP files with libwebp: lossless (the default, every pixel kept,
/// the colour of fully transparent pixels too) or lossy at a quality 0...100, the alpha kept
/// losslessly.
///
/// libwebp is a C library of the server and the command only: the `HeatmapKit` library does not
/// need it.
public struct WebPEncoder: Sendable, Hashable {
    /// Lossless or lossy.
    public enum Mode: Sendable, Hashable {
        /// Every pixel exactly: decodes to the same RGBA as the PNG.
        case lossless
        /// VP8 at `quality` 0...100 (higher: larger and closer); alpha lossless.
        case lossy(quality: Int)
    }

    /// The mode; defaults to ``Mode/lossless``.
    public var mode: Mode
    /// libwebp's effort from 0 (fastest) to 6 (smallest): lossy, its `method`; lossless, its
    /// preset level (`cwebp -z`). Default 2: on the densest benchmark tile, lossy files 5% larger
    /// than method 4's in about an eighth of the time, lossless 19% larger than `-z 6`'s in about a
    /// third (cwebp, docs/guides/tile-formats.md).
    public var method: Int

    /// The qualities `webp-quality` accepts.
    public static let qualityRange = 0...100

    /// Creates an encoder.
    public init(mode: Mode = .lossless, method: Int = 2) {
        self.mode = mode
        self.method = min(max(method, 0), 6)
    }

    /// An encoder for `quality`: lossy at that quality, lossless for `nil`.
    public init(quality: Int?) {
        self.init(mode: quality.map { .lossy(quality: min(max($0, 0), 100)) } ?? .lossless)
    }

    /// The bytes of a WebP file holding `image`.
    ///
    /// - Throws: ``WebPError`` for an empty image, one over WebP's 16,383 pixels a side, or a
    ///   failure inside libwebp (its error code).
    public func encode(_ image: RGBAImage) throws(WebPError) -> [UInt8] {
        let limit = Int(WEBP_MAX_DIMENSION)
        guard (1...limit).contains(image.width), (1...limit).contains(image.height),
            image.pixels.count == image.width * image.height * 4
        else {
            throw WebPError(
                "cannot encode a \(image.width)×\(image.height) image as WebP: sides must be 1...\(limit) pixels")
        }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw WebPError("libwebp's configuration does not match its header") }
        switch mode {
        case .lossless:
            _ = WebPConfigLosslessPreset(&config, Int32(method))
            config.exact = 1  // Keep the colour under alpha 0: the PNG's pixels, all of them.
        case .lossy(let quality):
            config.quality = Float(quality)
            config.method = Int32(method)
        }
        guard WebPValidateConfig(&config) != 0 else { throw WebPError("libwebp refuses the configuration") }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw WebPError("libwebp's picture does not match its header") }
        picture.use_argb = 1
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        defer { WebPPictureFree(&picture) }
        let imported = image.pixels.withUnsafeBufferPointer {
            WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(image.width * 4))
        }
        guard imported != 0 else { throw WebPError("libwebp cannot take the pixels (out of memory)") }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { writer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writer)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, let memory = writer.mem else {
            throw WebPError("libwebp failed to encode the image (error code \(picture.error_code.rawValue))")
        }
        return Array(UnsafeBufferPointer(start: memory, count: writer.size))
    }

    /// The WebP of the image in the PNG file `png` (any PNG: decoded to RGBA first).
    ///
    /// - Throws: ``WebPError`` when `png` does not decode or the image cannot be encoded.
    public func encode(png: [UInt8]) throws(WebPError) -> [UInt8] {
        let image: RGBAImage
        do {
            image = try PNGDecoder.decode(png)
        } catch {
            throw WebPError("cannot read the PNG to encode as WebP: \(error.description)")
        }
        return try encode(image)
    }
}

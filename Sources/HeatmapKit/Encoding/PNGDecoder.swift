import CPNG
import HeatmapCore

/// Reads PNG files into ``RGBAImage``s with libpng's simplified API, for tests and golden images.
///
/// Any valid PNG is accepted (palette, grey, 16-bit, interlaced…) and converted to 8-bit RGBA,
/// not premultiplied. Errors never crash the process: they throw ``PNGError`` with libpng's reason.
package enum PNGDecoder {
    /// The default largest image, in pixels, that ``decode(_:maximumPixelCount:)`` accepts:
    /// 2²⁶ pixels (for example 8192×8192), which decodes to 256 MiB of RGBA.
    public static let defaultMaximumPixelCount = 1 << 26

    /// Decodes the PNG file in `bytes` to 8-bit RGBA pixels.
    ///
    /// - Parameters:
    ///   - bytes: The whole PNG file.
    ///   - maximumPixelCount: The largest `width * height` to accept, so that a hostile header
    ///     cannot make the decoder allocate without bound; defaults to ``defaultMaximumPixelCount``.
    /// - Throws: ``PNGError`` of kind ``PNGError/Kind/invalidData`` if `bytes` is empty, not a
    ///   PNG, truncated or corrupt, or ``PNGError/Kind/imageTooLarge`` if the image has more
    ///   than `maximumPixelCount` pixels.
    public static func decode(
        _ bytes: [UInt8], maximumPixelCount: Int = defaultMaximumPixelCount
    ) throws(PNGError) -> RGBAImage {
        guard !bytes.isEmpty else { throw PNGError(.invalidData, "cannot decode PNG: the data is empty") }
        var image = png_image()
        image.version = cpng_image_version
        defer { png_image_free(&image) }  // Safe when libpng has already freed it.
        let decoded: Result<RGBAImage, PNGError> = bytes.withUnsafeBytes { raw in
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                return .failure(libpngError(image, "cannot read PNG header"))
            }
            let width = Int(image.width)
            let height = Int(image.height)
            let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
            guard !overflow, pixelCount <= maximumPixelCount else {
                let message =
                    "PNG is \(width)×\(height) pixels, over the limit of \(maximumPixelCount) pixels; "
                    + "pass a larger maximumPixelCount to decode it"
                return .failure(PNGError(.imageTooLarge, message))
            }
            image.format = cpng_format_rgba
            var finished = false
            let pixels = [UInt8](unsafeUninitializedCapacity: pixelCount * 4) { buffer, count in
                // Row stride 0 asks libpng for packed rows of width * 4 bytes.
                finished = png_image_finish_read(&image, nil, buffer.baseAddress, 0, nil) != 0
                count = finished ? pixelCount * 4 : 0
            }
            guard finished else { return .failure(libpngError(image, "cannot decode PNG image data")) }
            guard let result = RGBAImage(width: width, height: height, pixels: pixels) else {
                return .failure(
                    PNGError(.invalidData, "libpng returned \(pixels.count) bytes for a \(width)×\(height) image"))
            }
            return .success(result)
        }
        return try decoded.get()
    }

    /// An error carrying libpng's message from `image`, after `context`.
    private static func libpngError(_ image: png_image, _ context: String) -> PNGError {
        let reason = withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return PNGError(.invalidData, reason.isEmpty ? context : "\(context): \(reason)")
    }
}

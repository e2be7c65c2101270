import HeatmapCore

/// Reads PNG files into ``RGBAImage``s, in Swift (zlib of the SDK for inflating; no libpng).
///
/// Every PNG is accepted: grey, RGB, palette (with `tRNS` alpha), grey and alpha, RGBA, at
/// every bit depth PNG allows (1 to 16), with grey or RGB `tRNS` (that value transparent),
/// plain or Adam7-interlaced, and converted to 8-bit RGBA, not premultiplied. Samples of fewer
/// than 8 bits are scaled to 0…255 exactly; 16-bit samples are reduced as
/// `round(v × 255 / 65535)`, as browsers, GDAL and Pillow show them (libpng's simplified API
/// gamma-encoded them instead: a grey 31010 showed as 181, not 121). Gamma, colour-space and
/// text chunks are ignored, as Pillow does. Errors never crash the process: a corrupt,
/// truncated or hostile file throws ``PNGError`` saying what is wrong, and nothing is
/// allocated beyond the image the header announces, once it is within the pixel limit.
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
    ///   PNG, truncated or corrupt (a chunk's CRC, the zlib data, a filter type), or
    ///   ``PNGError/Kind/imageTooLarge`` if the image has more than `maximumPixelCount` pixels.
    /// - Complexity: O(`bytes.count` + pixels).
    public static func decode(
        _ bytes: [UInt8], maximumPixelCount: Int = defaultMaximumPixelCount
    ) throws(PNGError) -> RGBAImage {
        let decoded = bytes.withUnsafeBytes { raw in
            Result { () throws(PNGError) in try decode(raw, maximumPixelCount) }
        }
        return try decoded.get()
    }

    private static func decode(_ raw: UnsafeRawBufferPointer, _ maximumPixelCount: Int) throws(PNGError) -> RGBAImage {
        let file = try PNGFile(raw)
        let (pixelCount, overflow) = file.width.multipliedReportingOverflow(by: file.height)
        guard !overflow, pixelCount <= maximumPixelCount, pixelCount <= Int.max / 8 else {
            let message =
                "PNG is \(file.width)×\(file.height) pixels, over the limit of \(maximumPixelCount) pixels; "
                + "pass a larger maximumPixelCount to decode it"
            throw PNGError(.imageTooLarge, message)
        }
        let inflater = try PNGInflater(file: raw, chunks: file.data)
        var failure: PNGError?
        let pixels = [UInt8](unsafeUninitializedCapacity: pixelCount * 4) { buffer, count in
            guard let out = buffer.baseAddress else { return }
            do throws(PNGError) {
                try decodeRows(file, inflater, into: out)
                try inflater.finish()
                count = pixelCount * 4
            } catch {
                failure = error
                count = 0
            }
        }
        if let failure { throw failure }
        guard let image = RGBAImage(width: file.width, height: file.height, pixels: pixels) else {
            throw PNGFile.invalid("\(pixels.count) bytes decoded for a \(file.width)×\(file.height) image")
        }
        return image
    }

    /// The seven passes of Adam7: first column and row, column and row steps.
    static let adam7: [(x: Int, y: Int, dx: Int, dy: Int)] = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// Inflates, unfilters and converts every scanline of every pass into `out` (RGBA), which
    /// every pixel is written to once.
    private static func decodeRows(
        _ file: PNGFile, _ inflater: PNGInflater, into out: UnsafeMutablePointer<UInt8>
    ) throws(PNGError) {
        let passes = file.interlaced ? adam7 : [(0, 0, 1, 1)]
        let widest = (file.width * file.bitsPerPixel + 7) / 8
        let filterStep = max(1, file.bitsPerPixel / 8)
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * (widest + 1))
        defer { rows.deallocate() }
        let converter = PNGRowConverter(file)
        for (x0, y0, dx, dy) in passes {
            let columns = (file.width - x0 + dx - 1) / dx
            let lines = (file.height - y0 + dy - 1) / dy
            guard columns > 0, lines > 0 else { continue }
            let rowBytes = (columns * file.bitsPerPixel + 7) / 8
            var previous = rows
            var current = rows + widest + 1
            previous.initialize(repeating: 0, count: rowBytes + 1)
            for line in 0..<lines {
                try inflater.read(into: current, count: rowBytes + 1)
                try PNGRowFilter.reconstruct(
                    current + 1, above: previous + 1, count: rowBytes, step: filterStep, filter: current[0])
                let y = y0 + line * dy
                converter.convert(current + 1, columns: columns, into: out + (y * file.width + x0) * 4, stride: dx * 4)
                swap(&previous, &current)
            }
        }
    }
}

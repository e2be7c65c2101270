import CZlib
import HeatmapCore

/// A failure to encode or decode a PNG, with a message that says what went wrong and what to do.
public struct PNGError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The broad cause of a ``PNGError``.
    public enum Kind: Sendable, Hashable {
        /// The image has zero width or height (PNG needs at least one pixel), or its pixel
        /// buffer does not hold `width * height * 4` bytes.
        case invalidImage
        /// The image or its compressed data is larger than PNG or this process allows.
        case imageTooLarge
        /// zlib reported an error while compressing; ``PNGError/message`` holds its code.
        case compressionFailed
        /// The bytes are not a PNG that can be read (not one, truncated or corrupt);
        /// ``PNGError/message`` says what is wrong and where.
        case invalidData
    }

    /// The broad cause, for code that reacts to particular failures.
    public let kind: Kind
    /// A human-readable explanation, suitable for logs and error messages.
    public let message: String

    /// Creates an error of the given kind with an explanation.
    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The ``message``.
    public var description: String { message }
}

/// Writes ``RGBAImage``s as PNG files, non-interlaced, one IDAT chunk: a palette image (colour
/// type 3, `PLTE` and `tRNS`, 1, 2, 4 or 8 bits a pixel) when the image holds at most 256
/// colours (``Palette/whenExact``, the default: the same pixels, a fraction of the bytes), else
/// 8-bit RGBA (colour type 6).
///
/// The PNG container is written directly (chunk CRCs with `CRC32`; zlib only for
/// ``Compressor/zlib``). The defaults, the ``Filter/up`` filter and the ``Compressor/runLength`` deflate,
/// were chosen by measuring heatmap tiles (docs/performance.md): on 512 × 512 tiles it is 4.5 to
/// 5 times as fast as zlib's level 1 and its files are 12–30% smaller, since after `up` a
/// heatmap is mostly runs of zeros and short repeated pixel deltas. Of zlib's settings, `up` at
/// level 1 was the fastest with the smallest files; higher levels give files 15–45% smaller for
/// 2–50 times the time, for tiles that are cached long.
public struct PNGEncoder: Sendable {
    /// The PNG filter applied to each row of pixels before compression.
    public enum Filter: Sendable, Hashable, CaseIterable {
        /// No filter: rows are compressed as they are.
        case none
        /// Each byte minus the same channel of the pixel to its left.
        case sub
        /// Each byte minus the same byte of the row above.
        case up
        /// Each byte minus the Paeth prediction from the left, upper and upper-left pixels.
        case paeth
        /// Per row, whichever of `none`, `sub`, `up` and `paeth` gives the smallest sum of the
        /// filtered bytes read as signed values (libpng's heuristic). Slowest; on heatmap tiles
        /// its files were about as large as `up`'s.
        case adaptive
    }

    /// A zlib compression level from 0 (stored, no compression) to 9 (smallest, slowest).
    public struct CompressionLevel: Sendable, Hashable {
        /// The zlib level, in `0...9`.
        public let value: Int

        /// Creates a level, or returns `nil` if `value` is outside `0...9`.
        public init?(_ value: Int) {
            guard (0...9).contains(value) else { return nil }
            self.value = value
        }

        private init(unchecked value: Int) { self.value = value }

        /// Level 0: data is stored without compression; largest files.
        public static let stored = CompressionLevel(unchecked: 0)
        /// Level 1: fastest compression; the default.
        public static let fastest = CompressionLevel(unchecked: 1)
        /// Level 6: zlib's own default.
        public static let zlibDefault = CompressionLevel(unchecked: 6)
        /// Level 9: smallest files, slowest.
        public static let smallest = CompressionLevel(unchecked: 9)
    }

    /// How the filtered rows are deflated.
    public enum Compressor: Sendable, Hashable {
        /// zlib's `compress2` at ``PNGEncoder/compressionLevel``: LZ77 over a 32 KiB window.
        case zlib
        /// HeatmapKit's own deflate: Huffman blocks whose matches only repeat the previous byte
        /// or pixel (or, in palette images of 1 or 2 bits a pixel, the row above). About 5 times
        /// as fast as zlib's level 1 on heatmap tiles, with files 12–30% smaller;
        /// ``PNGEncoder/compressionLevel`` does not apply.
        case runLength
    }

    /// When to write a palette image.
    public enum Palette: Sendable, Hashable {
        /// Whenever the image holds at most 256 distinct RGBA colours: then its pixels are
        /// indices into a `PLTE` (colours) and `tRNS` (alphas) chunk, and decode to the same
        /// RGBA. The default.
        case whenExact
        /// Never: always 8-bit RGBA.
        case never
    }

    /// The compressor; defaults to ``Compressor/runLength``.
    public var compressor: Compressor

    /// When to write a palette image; defaults to ``Palette/whenExact``.
    public var palette: Palette = .whenExact
    /// The row filter of palette images; defaults to ``Filter/paeth``, which gave the smallest
    /// files on heatmap tiles (docs/guides/tile-formats.md).
    public var paletteFilter: Filter = .paeth
    /// Whether ``Compressor/runLength`` writes palette images of 1 or 2 bits a pixel
    /// unfiltered, with matches that repeat the row above (on the benchmark's sparse tiles of
    /// one colour, a third to a half of the bytes of ``paletteFilter``'s rows and matches two
    /// pixels back); `false` filters them with ``paletteFilter`` as 8-bit ones are. At 4 bits
    /// (16 colours) the row above gave 12% more bytes, so those keep the filter.
    var packedRowsAbove = true

    /// The row filter; defaults to ``Filter/up``.
    public var filter: Filter
    /// The zlib compression level; defaults to ``CompressionLevel/fastest`` (1).
    public var compressionLevel: CompressionLevel

    /// Creates an encoder with the given row filter and compression level.
    public init(
        filter: Filter = .up, compressionLevel: CompressionLevel = .fastest, compressor: Compressor = .runLength
    ) {
        self.compressor = compressor
        self.filter = filter
        self.compressionLevel = compressionLevel
    }

    /// Creates an encoder with the given filters, compression and palette choice.
    public init(
        filter: Filter = .up, compressionLevel: CompressionLevel = .fastest, compressor: Compressor = .runLength,
        palette: Palette, paletteFilter: Filter = .paeth
    ) {
        self.init(filter: filter, compressionLevel: compressionLevel, compressor: compressor)
        self.palette = palette
        self.paletteFilter = paletteFilter
    }

    /// Returns the bytes of a PNG file holding `image`: a palette image when ``palette`` allows
    /// and the image has at most 256 colours, else RGBA.
    ///
    /// - Throws: ``PNGError`` if the image is empty (PNG needs at least 1×1 pixels) or its pixel
    ///   count is inconsistent, if a side exceeds 2³¹−1 pixels or the compressed data exceeds
    ///   2³¹−1 bytes, or if zlib fails.
    public func encode(_ image: RGBAImage) throws(PNGError) -> [UInt8] {
        let width = image.width
        let height = image.height
        guard width > 0, height > 0 else {
            throw PNGError(
                .invalidImage, "cannot encode a \(width)×\(height) image as PNG: both sides must be at least 1 pixel")
        }
        guard image.pixels.count == width * height * 4 else {
            let expected = "\(width * height * 4) bytes for \(width)×\(height) RGBA pixels"
            throw PNGError(.invalidImage, "cannot encode image: it holds \(image.pixels.count) bytes, not \(expected)")
        }
        let limit = Int(Int32.max)
        guard width <= limit, height <= limit else {
            throw PNGError(
                .imageTooLarge, "cannot encode a \(width)×\(height) image as PNG: sides must be ≤ \(limit) pixels")
        }
        if palette == .whenExact, let (palette, indices) = PNGPalette.indexed(image) {
            return try indices.withUnsafeBufferPointer { (indices) throws(PNGError) -> [UInt8] in
                guard let base = indices.baseAddress else { throw PNGError(.invalidImage, "the image has no pixels") }
                return try indexedPNG(indices: base, width: width, height: height, palette: palette)
            }
        }
        return try encodeRGBA(image)
    }

    /// ``encode(_:)`` as 8-bit RGBA, whatever the colours.
    func encodeRGBA(_ image: RGBAImage) throws(PNGError) -> [UInt8] {
        let width = image.width
        let height = image.height
        let limit = Int(Int32.max)
        if compressor == .runLength {
            // A band of rows at a time, from the pixels: no filtered copy of the whole image.
            let bandRows = PNGBandStream.bandRows(width: width, height: height)
            return try PNGBandStream.with(width: width, height: height, bandRows: bandRows, filter: filter) {
                (stream) throws(PNGError) -> [UInt8] in
                image.pixels.withUnsafeBytes { pixels in
                    guard let base = pixels.baseAddress else { return }
                    stream.append(image: base)
                }
                return try Self.container(stream)
            }
        }
        let filtered = PNGRowFilter.filterRows(of: image.pixels, rowBytes: width * 4, height: height, filter: filter)
        guard let sourceCount = uLong(exactly: filtered.count) else {
            throw PNGError(
                .imageTooLarge, "cannot encode a \(width)×\(height) image: too large for zlib; split it into tiles")
        }
        let bound = Int(compressBound(sourceCount))
        var status = czlib_ok
        var compressedCount = 0
        // Signature (8), IHDR (25), IDAT (12 + data), IEND (12); the data is compressed in place.
        let bytes = [UInt8](unsafeUninitializedCapacity: 57 + bound) { buffer, count in
            guard let out = buffer.baseAddress else { return }
            var destinationCount = uLong(bound)
            status = filtered.withUnsafeBufferPointer { source in
                compress2(out + 41, &destinationCount, source.baseAddress, sourceCount, Int32(compressionLevel.value))
            }
            compressedCount = Int(destinationCount)
            guard status == czlib_ok, compressedCount <= limit else { return }
            Self.storeBigEndian(0x8950_4E47, at: out)  // The signature: \x89 P N G \r \n \x1A \n.
            Self.storeBigEndian(0x0D0A_1A0A, at: out + 4)
            Self.storeBigEndian(UInt32(width), at: out + 16)
            Self.storeBigEndian(UInt32(height), at: out + 20)
            (out + 24).initialize(repeating: 0, count: 5)
            out[24] = 8  // Bit depth; then colour type 6 (RGBA), compression, filter, interlace 0.
            out[25] = 6
            Self.finishChunk(type: 0x4948_4452, dataCount: 13, at: out + 8)  // IHDR
            Self.finishChunk(type: 0x4944_4154, dataCount: compressedCount, at: out + 33)  // IDAT
            Self.finishChunk(type: 0x4945_4E44, dataCount: 0, at: out + 45 + compressedCount)  // IEND
            count = 57 + compressedCount
        }
        guard status == czlib_ok else {
            throw PNGError(
                .compressionFailed, "zlib compress2 failed with code \(status) at level \(compressionLevel.value)")
        }
        guard compressedCount <= limit else {
            throw PNGError(
                .imageTooLarge,
                "compressed data is \(compressedCount) bytes, over PNG's 2³¹−1 byte chunk limit; split the image into tiles"
            )
        }
        return bytes
    }

    /// The PNG file of the rows appended to `stream`: the zlib stream inside its chunks.
    static func container(_ stream: PNGBandStream) throws(PNGError) -> [UInt8] {
        // Signature (8), IHDR (25), IDAT (8 + data + 4), IEND (12) around the stream.
        var bytes = stream.stream(prefix: 41, suffix: 16)
        try finishContainer(&bytes, width: stream.width, height: stream.height)
        return bytes
    }

    /// Fills in the PNG file around the zlib stream of filtered rows at `bytes[41..<bytes.count - 16]`.
    private static func finishContainer(_ bytes: inout [UInt8], width: Int, height: Int) throws(PNGError) {
        let streamCount = bytes.count - 57
        guard streamCount <= Int(Int32.max) else {
            throw PNGError(
                .imageTooLarge, "compressed data is \(streamCount) bytes, over PNG's 2³¹−1 byte chunk limit")
        }
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let out = buffer.baseAddress else { return }
            storeBigEndian(0x8950_4E47, at: out)
            storeBigEndian(0x0D0A_1A0A, at: out + 4)
            storeBigEndian(UInt32(width), at: out + 16)
            storeBigEndian(UInt32(height), at: out + 20)
            (out + 24).initialize(repeating: 0, count: 5)
            out[24] = 8
            out[25] = 6
            finishChunk(type: 0x4948_4452, dataCount: 13, at: out + 8)
            finishChunk(type: 0x4944_4154, dataCount: streamCount, at: out + 33)
            finishChunk(type: 0x4945_4E44, dataCount: 0, at: out + 45 + streamCount)
        }
    }

    /// Writes the length, `type` and CRC of the chunk at `chunk`, whose data is already in place.
    static func finishChunk(type: UInt32, dataCount: Int, at chunk: UnsafeMutablePointer<UInt8>) {
        storeBigEndian(UInt32(dataCount), at: chunk)
        storeBigEndian(type, at: chunk + 4)
        let crc = CRC32.checksum(UnsafeRawBufferPointer(start: chunk + 4, count: dataCount + 4))
        storeBigEndian(crc, at: chunk + 8 + dataCount)
    }

    /// Writes `value` as four big-endian bytes at `pointer`.
    @inline(__always)
    static func storeBigEndian(_ value: UInt32, at pointer: UnsafeMutablePointer<UInt8>) {
        pointer[0] = UInt8(truncatingIfNeeded: value >> 24)
        pointer[1] = UInt8(truncatingIfNeeded: value >> 16)
        pointer[2] = UInt8(truncatingIfNeeded: value >> 8)
        pointer[3] = UInt8(truncatingIfNeeded: value)
    }
}

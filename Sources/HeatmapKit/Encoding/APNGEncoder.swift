import HeatmapCore

/// Writes an animated PNG (APNG) a frame at a time: the bytes of each frame come back from
/// ``encode(_:delay:)`` for the caller to write, so an animation of any length needs no more
/// memory than one frame and the encoder's state.
///
/// The file holds, in order: the PNG signature, `IHDR`, `acTL` (the frame count and how many
/// times to play), `PLTE` and `tRNS` for a palette animation, then for each frame an `fcTL`
/// (its size, delay, dispose `none` and blend `source`, so each frame replaces the one before
/// whole) and its pixels: the first frame's in `IDAT`, so a reader that knows only PNG shows
/// it, the others' in `fdAT`. `fcTL` and `fdAT` chunks are numbered in one sequence from 0.
/// ``finish()`` writes `IEND`.
///
/// Frames are deflated with the ``PNGEncoder`` given (its compressor, filters and level). With
/// ``Colors/palette(_:)`` every frame is written as indices into one shared palette (1 to 8
/// bits a pixel), else as 8-bit RGBA. ``encode(_:delay:loopCount:png:)`` chooses for frames in
/// memory: a palette when all of them fit one of 256 colours.
package struct APNGEncoder: Sendable {
    /// How frames store their colours.
    package enum Colors: Sendable, Hashable {
        /// 8-bit RGBA (colour type 6), whatever the colours.
        case rgba
        /// Indices into this palette of at most 256 colours (colour type 3), shared by every
        /// frame; a frame with a colour outside it is an error.
        case palette([RGBAColor])
    }

    /// The width of every frame, in pixels.
    package let width: Int
    /// The height of every frame, in pixels.
    package let height: Int
    /// The number of frames the file announces in `acTL`; ``finish()`` checks that many were written.
    package let frameCount: Int
    /// Times the animation plays; 0 plays it forever.
    package let loopCount: Int
    /// The delay of a frame when ``encode(_:delay:)`` is given none.
    package let delay: Duration
    /// How frames store their colours.
    package let colors: Colors
    /// The filters and compressor frames are deflated with.
    package let png: PNGEncoder
    /// The shared palette, for ``Colors/palette(_:)``.
    let palette: PNGPalette?
    /// The most frames an APNG holds: 2³⁰ − 1, so that every `fcTL` and `fdAT` sequence number
    /// (two a frame) stays within PNG's 2³¹ − 1.
    package static let maximumFrameCount = (Int(Int32.max) - 1) / 2
    /// Frames written so far.
    package private(set) var framesWritten = 0
    /// The next `fcTL`/`fdAT` sequence number.
    var sequence: UInt32 = 0

    /// Creates an encoder of `frameCount` frames of `width × height` pixels.
    ///
    /// - Parameters:
    ///   - width: The width of every frame, in pixels: 1 to 2³¹−1.
    ///   - height: The height of every frame, in pixels: 1 to 2³¹−1.
    ///   - frameCount: The number of frames that will be written: 1 to ``maximumFrameCount``.
    ///   - delay: How long each frame shows, unless ``encode(_:delay:)`` says otherwise: 0 to
    ///     65.535 seconds, kept to the millisecond.
    ///   - loopCount: Times to play, 0 (the default) for ever; at most 2³¹−1.
    ///   - colors: RGBA frames (the default) or a shared palette of 1 to 256 colours.
    ///   - png: The row filters and compressor; the default ``PNGEncoder``'s.
    /// - Throws: ``PNGError`` of kind ``PNGError/Kind/invalidImage`` naming the value when a
    ///   side or the frame count is below 1, the delay or loop count is out of range, or the
    ///   palette is empty or has more than 256 colours; ``PNGError/Kind/imageTooLarge`` when a
    ///   side is over 2³¹−1 or the frame count over ``maximumFrameCount``.
    package init(
        width: Int, height: Int, frameCount: Int, delay: Duration = .milliseconds(500), loopCount: Int = 0,
        colors: Colors = .rgba, png: PNGEncoder = PNGEncoder()
    ) throws(PNGError) {
        let limit = Int(Int32.max)
        guard width > 0, height > 0 else {
            throw PNGError(
                .invalidImage, "cannot encode \(width)×\(height) frames: both sides must be at least 1 pixel")
        }
        guard width <= limit, height <= limit else {
            throw PNGError(.imageTooLarge, "cannot encode \(width)×\(height) frames: sides must be ≤ \(limit) pixels")
        }
        guard frameCount >= 1, frameCount <= Self.maximumFrameCount else {
            throw PNGError(
                frameCount < 1 ? .invalidImage : .imageTooLarge,
                "an APNG holds 1 to \(Self.maximumFrameCount) frames, not \(frameCount)")
        }
        guard (0...limit).contains(loopCount) else {
            throw PNGError(.invalidImage, "the loop count must be 0 (for ever) to \(limit), not \(loopCount)")
        }
        _ = try Self.milliseconds(delay)
        if case .palette(let shared) = colors {
            guard (1...PNGPalette.capacity).contains(shared.count) else {
                throw PNGError(.invalidImage, "a shared palette holds 1 to 256 colours, not \(shared.count)")
            }
            palette = Self.palette(shared)
        } else {
            palette = nil
        }
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.delay = delay
        self.loopCount = loopCount
        self.colors = colors
        self.png = png
    }

    /// The bytes of the next frame, after the file's head for the first: append them to the
    /// file in the order they come.
    ///
    /// - Parameters:
    ///   - frame: The frame's pixels, `width × height`.
    ///   - delay: How long this frame shows; ``delay`` when `nil`.
    /// - Throws: ``PNGError`` when the frame is not `width × height`, when all
    ///   ``frameCount`` frames were written already, when a palette animation's frame has a
    ///   colour outside the palette (naming the frame, the pixel and the colour), or when the
    ///   delay is out of range. The encoder is unchanged then.
    /// - Complexity: O(pixels); the frame's compressed bytes are the only large allocation.
    package mutating func encode(_ frame: RGBAImage, delay: Duration? = nil) throws(PNGError) -> [UInt8] {
        guard framesWritten < frameCount else {
            throw PNGError(.invalidImage, "the APNG announced \(frameCount) frames, and all were written already")
        }
        guard frame.width == width, frame.height == height, frame.pixels.count == width * height * 4 else {
            throw PNGError(
                .invalidImage,
                "frame \(framesWritten + 1) is \(frame.width)×\(frame.height), not the animation's \(width)×\(height)")
        }
        let milliseconds = try Self.milliseconds(delay ?? self.delay)
        let first = framesWritten == 0
        // fcTL (38 bytes), then the data chunk's length and type, and for fdAT its sequence number.
        let prefix = 38 + 8 + (first ? 0 : 4)
        var bytes = try frameData(frame, prefix: prefix)
        let dataCount = bytes.count - prefix - 8 + (first ? 0 : 4)
        guard dataCount <= Int(Int32.max) else {
            throw PNGError(
                .imageTooLarge,
                "frame \(framesWritten + 1)'s compressed data is \(dataCount) bytes, over PNG's 2³¹−1 byte chunk limit")
        }
        let sequence = self.sequence
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let out = buffer.baseAddress else { return }
            writeFrameControl(sequence: sequence, milliseconds: milliseconds, at: out)
            if first {
                PNGEncoder.finishChunk(type: 0x4944_4154, dataCount: dataCount, at: out + 38)  // IDAT
            } else {
                PNGEncoder.storeBigEndian(sequence + 1, at: out + 46)
                PNGEncoder.finishChunk(type: 0x6664_4154, dataCount: dataCount, at: out + 38)  // fdAT
            }
        }
        // The stream's writer needs 8 bytes of room past its end; the CRC took 4 of them.
        bytes.removeLast(4)
        self.sequence += first ? 1 : 2
        framesWritten += 1
        return first ? head() + bytes : bytes
    }

    /// The file's last bytes: the `IEND` chunk.
    ///
    /// - Throws: ``PNGError`` of kind ``PNGError/Kind/invalidImage`` when fewer frames than
    ///   ``frameCount`` were written (`acTL` announced them: the file would be invalid).
    package func finish() throws(PNGError) -> [UInt8] {
        guard framesWritten == frameCount else {
            throw PNGError(
                .invalidImage, "the APNG announced \(frameCount) frames but \(framesWritten) were written")
        }
        return [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
    }

    /// The whole APNG of `frames` (at least one, all the same size): a palette animation when
    /// every frame fits one palette of 256 colours (``sharedPalette(of:)``), else RGBA.
    ///
    /// - Throws: ``PNGError`` as ``init(width:height:frameCount:delay:loopCount:colors:png:)``
    ///   and ``encode(_:delay:)`` do; an empty list is ``PNGError/Kind/invalidImage``.
    package static func encode(
        _ frames: [RGBAImage], delay: Duration = .milliseconds(500), loopCount: Int = 0, png: PNGEncoder = PNGEncoder()
    ) throws(PNGError) -> [UInt8] {
        guard let first = frames.first else { throw PNGError(.invalidImage, "an APNG needs at least one frame") }
        let shared = png.palette == .whenExact ? sharedPalette(of: frames) : nil
        var encoder = try APNGEncoder(
            width: first.width, height: first.height, frameCount: frames.count, delay: delay, loopCount: loopCount,
            colors: shared.map { .palette($0) } ?? .rgba, png: png)
        var bytes: [UInt8] = []
        for frame in frames { bytes += try encoder.encode(frame) }
        return bytes + (try encoder.finish())
    }

    /// `delay` in whole milliseconds, checked to fit `fcTL`'s 16-bit numerator over 1000.
    static func milliseconds(_ delay: Duration) throws(PNGError) -> UInt16 {
        let (seconds, attoseconds) = delay.components
        guard seconds >= 0, attoseconds >= 0, seconds <= 65 else {
            throw PNGError(.invalidImage, "a frame delay is 0 to 65.535 seconds, not \(delay)")
        }
        let milliseconds = seconds * 1000 + (attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
        guard let value = UInt16(exactly: milliseconds) else {
            throw PNGError(.invalidImage, "a frame delay is 0 to 65.535 seconds, not \(delay)")
        }
        return value
    }
}

import CZlib

/// The zlib stream of a PNG's image data, inflated a scanline at a time straight from the
/// file's `IDAT` chunks (no copy of the compressed data, no buffer beyond the two rows being
/// worked on): the decoder asks for exactly the bytes the image needs, so a stream that would
/// inflate to more (a decompression bomb) costs nothing beyond them. zlib is the SDK's own
/// (`link "z"`, no pkg-config), as on every Apple platform.
///
/// A class, to own the `z_stream` (zlib keeps a pointer to it, so it must not move).
final class PNGInflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private let file: UnsafeRawBufferPointer
    private let chunks: [Range<Int>]
    private var nextChunk = 0
    private var ended = false

    /// Starts inflating the data in `chunks` of `file`, which must outlive the inflater.
    init(file: UnsafeRawBufferPointer, chunks: [Range<Int>]) throws(PNGError) {
        self.file = file
        self.chunks = chunks
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard inflateInit_(stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == czlib_ok else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw PNGError(.invalidData, "cannot decode PNG: zlib cannot start (out of memory?)")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Fills `buffer[0..<count]` with the next inflated bytes.
    ///
    /// - Throws: ``PNGError`` when the data is corrupt or ends before `count` bytes.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(PNGError) {
        stream.pointee.next_out = buffer
        stream.pointee.avail_out = UInt32(count)
        while stream.pointee.avail_out > 0 {
            guard !ended else { throw PNGFile.invalid("the image data holds fewer bytes than the image needs") }
            if stream.pointee.avail_in == 0 {
                guard feed() else { throw PNGFile.invalid("the image data ends early (a truncated IDAT?)") }
            }
            try step()
        }
    }

    /// Reads what follows the image's bytes to the stream's end, to check its Adler-32: an
    /// error when it is wrong or the data is corrupt. Extra bytes (at most 64 KiB are looked
    /// at) and a stream cut after the last scanline are let be, as libpng and browsers do.
    func finish() throws(PNGError) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<16 where !ended {
            if stream.pointee.avail_in == 0 && !feed() { return }
            try scratch.withUnsafeMutableBufferPointer { (out) throws(PNGError) in
                stream.pointee.next_out = out.baseAddress
                stream.pointee.avail_out = UInt32(out.count)
                try step()
            }
        }
    }

    /// One call of `inflate`.
    private func step() throws(PNGError) {
        let code = inflate(stream, czlib_no_flush)
        if code == czlib_stream_end {
            ended = true
        } else if code == czlib_data_error {
            let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
            throw PNGFile.invalid("the image data is corrupt (zlib: \(reason))")
        } else if code == czlib_mem_error {
            throw PNGFile.invalid("zlib ran out of memory")
        } else if code != czlib_ok && code != czlib_buf_error {
            throw PNGFile.invalid("the image data is corrupt (zlib code \(code))")
        }
    }

    /// Hands zlib the next IDAT chunk; false when there is none.
    private func feed() -> Bool {
        guard nextChunk < chunks.count, let base = file.baseAddress else { return false }
        let chunk = chunks[nextChunk]
        nextChunk += 1
        stream.pointee.next_in = UnsafeMutablePointer(
            mutating: base.assumingMemoryBound(to: UInt8.self) + chunk.lowerBound)
        stream.pointee.avail_in = UInt32(chunk.count)
        return true
    }
}

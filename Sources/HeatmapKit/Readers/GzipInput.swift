import CZlib
import Foundation

/// The bytes of an open file descriptor, inflated through zlib when they start with gzip's
/// magic bytes (1f 8b) and passed through unchanged otherwise, as zlib's `gzread` does, but
/// checked to the end: members one after another read as one stream, and anything after the
/// last complete member but zero padding is an error (`gzread` ignored it, so a plain file
/// appended to a gzipped one was dropped without a word).
///
/// Errors are `gzread`'s: corrupt data and read errors are thrown at once; a stream that ends
/// early, and bytes after its end, once the bytes before them have been returned.
final class GzipInput {
    /// The compressed bytes read at a time, as `gzbuffer(file, 1 << 17)` had it.
    static let inputSize = 1 << 17

    private enum Mode { case unknown, direct, gzip, over }

    private let path: String
    private let descriptor: Int32
    private let input: UnsafeMutablePointer<UInt8>
    private let stream: UnsafeMutablePointer<z_stream>
    private var mode = Mode.unknown
    private var streamOpen = false
    /// The descriptor has no more bytes.
    private var inputOver = false
    /// The error to throw once the bytes before it have been returned.
    private var pending: PointFileError?

    /// Whether the input passes through uncompressed (known after the first read).
    var isDirect: Bool { mode == .direct }

    /// Reads `descriptor`, which it closes when done; `path` names the input in errors.
    init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
        input = .allocate(capacity: Self.inputSize)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
    }

    deinit {
        if streamOpen { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
        close(descriptor)
    }

    /// Fills `buffer[0..<count]` as far as the input goes and returns the bytes written:
    /// fewer than `count` only at the end of the input, 0 once it is over.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(PointFileError) -> Int {
        if mode == .unknown { try start() }
        var written = 0
        switch mode {
        case .direct:
            // The bytes read to tell gzip from anything else come first.
            if let next = stream.pointee.next_in, stream.pointee.avail_in > 0 {
                written = min(count, Int(stream.pointee.avail_in))
                buffer.update(from: next, count: written)
                stream.pointee.next_in = next + written
                stream.pointee.avail_in -= UInt32(written)
            }
            while written < count && !inputOver {
                let got = try readRaw(into: buffer + written, count: count - written)
                if got == 0 { inputOver = true }
                written += got
            }
        case .gzip: written = try inflate(into: buffer, count: count)
        case .unknown, .over: break
        }
        if written == 0, let pending { throw pending }
        return written
    }

    /// Reads the first bytes and decides: gzip when they are 1f 8b, else passed through.
    private func start() throws(PointFileError) {
        var have = 0
        while have < 2 && !inputOver {
            let got = try readRaw(into: input + have, count: Self.inputSize - have)
            if got == 0 { inputOver = true }
            have += got
        }
        stream.pointee.next_in = input
        stream.pointee.avail_in = UInt32(have)
        guard have >= 2 && input[0] == 0x1F && input[1] == 0x8B else {
            mode = .direct
            return
        }
        guard czlib_inflate_init_gzip(stream) == czlib_ok else { throw corrupt("out of memory") }
        streamOpen = true
        mode = .gzip
    }

    /// Inflates into `buffer` until it is full or the stream is over.
    private func inflate(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(PointFileError) -> Int {
        stream.pointee.next_out = buffer
        stream.pointee.avail_out = UInt32(count)
        while stream.pointee.avail_out > 0 && mode == .gzip && pending == nil {
            if stream.pointee.avail_in == 0 {
                try fillInput()
                if stream.pointee.avail_in == 0 {
                    pending = PointFileError(path: path, reason: "the compressed data ends early: truncated file?")
                    break
                }
            }
            let code = CZlib.inflate(stream, czlib_no_flush)
            if code == czlib_stream_end {
                try endOfMember()
            } else if code == czlib_data_error {
                throw corrupt(stream.pointee.msg.map { String(cString: $0) } ?? "compressed data error")
            } else if code == czlib_mem_error {
                throw corrupt("out of memory")
            } else if code != czlib_ok && code != czlib_buf_error {
                throw corrupt("inflate stream corrupt")
            }
        }
        return count - Int(stream.pointee.avail_out)
    }

    /// After a member's trailer: another member (1f 8b) goes on, the end of the input or zero
    /// padding to it ends the stream, anything else is an error.
    private func endOfMember() throws(PointFileError) {
        while stream.pointee.avail_in < 2 && !inputOver { try fillInput() }
        let have = Int(stream.pointee.avail_in)
        if have >= 2, let next = stream.pointee.next_in, next[0] == 0x1F && next[1] == 0x8B {
            inflateReset(stream)
            return
        }
        mode = .over
        guard have > 0 else { return }
        let (count, zeros) = try rest()
        if zeros { return }
        pending = PointFileError(
            path: path,
            reason: "\(count) \(count == 1 ? "byte follows" : "bytes follow") the end of the compressed data "
                + "(not gzip): two files joined?")
    }

    /// The bytes from the next one not yet inflated to the end of the input, and whether they
    /// are all zeros (read to the end only while they are).
    private func rest() throws(PointFileError) -> (count: Int, zeros: Bool) {
        var count = 0
        var zeros = true
        while true {
            if let next = stream.pointee.next_in, stream.pointee.avail_in > 0 {
                let have = Int(stream.pointee.avail_in)
                if zeros { zeros = !UnsafeBufferPointer(start: next, count: have).contains { $0 != 0 } }
                count += have
                stream.pointee.avail_in = 0
            }
            if !zeros, let left = bytesLeftInFile() { return (count + left, false) }
            if inputOver { return (count, zeros) }
            try fillInput()
        }
    }

    /// For a regular file, the bytes after the descriptor's offset; `nil` for a pipe.
    private func bytesLeftInFile() -> Int? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let offset = lseek(descriptor, 0, SEEK_CUR)
        guard offset >= 0 else { return nil }
        return max(0, Int(info.st_size) - Int(offset))
    }

    /// Moves the compressed bytes not yet inflated to the front and reads more after them.
    private func fillInput() throws(PointFileError) {
        guard !inputOver else { return }
        let have = Int(stream.pointee.avail_in)
        if have > 0, let next = stream.pointee.next_in, next != input { memmove(input, next, have) }
        let got = try readRaw(into: input + have, count: Self.inputSize - have)
        if got == 0 { inputOver = true }
        stream.pointee.next_in = input
        stream.pointee.avail_in = UInt32(have + got)
    }

    /// One read(2), again if a signal interrupted it; 0 at the end.
    private func readRaw(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(PointFileError) -> Int {
        while true {
            let got = readFile(descriptor, buffer, count)
            if got >= 0 { return got }
            guard errno == EINTR else {
                throw PointFileError(path: path, reason: "cannot be read: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// zlib's message for corrupt data, as `gzread` gave it (less its "internal error: ").
    private func corrupt(_ message: String) -> PointFileError {
        PointFileError(path: path, reason: "cannot be read: \(message) (a corrupt gzip file?)")
    }
}

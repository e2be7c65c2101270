import CZlib
import Foundation

/// A file (or standard input) read in chunks of 1 MiB through zlib, which inflates gzip data
/// and passes anything else through unchanged.
///
/// The bytes not yet consumed are `storage[start..<end]`. Parsers that need a token in one
/// piece call ``refill(keepingFrom:)``, which moves the kept bytes to the front and reads
/// more; the buffer holds a chunk plus ``maximumKept`` bytes, so memory stays bounded.
final class ByteInput {
    static let chunkSize = 1 << 20
    static let maximumKept = 1 << 20

    let path: String
    let storage: UnsafeMutablePointer<UInt8>
    let capacity: Int
    var start = 0
    var end = 0
    /// The offset in the file of `storage[0]`.
    var base = 0
    private(set) var atEnd = false
    /// The bytes read into the buffer so far, and the kept bytes moved to its front. Each
    /// refill moves at most ``maximumKept`` bytes and, but for the last two, reads at least
    /// ``chunkSize``, so `bytesMoved` ≤ `bytesRead` + 2 × ``maximumKept``: copying is linear.
    private(set) var bytesRead = 0
    private(set) var bytesMoved = 0
    private let file: gzFile

    init(path: String) throws(PointFileError) {
        self.path = path
        let handle: gzFile?
        if path == "-" {
            handle = gzdopen(dup(STDIN_FILENO), "rb")
        } else {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw PointFileError(path: path, reason: "cannot be read: no such file")
            }
            guard !isFolder.boolValue else { throw PointFileError(path: path, reason: "is a folder, not a file") }
            handle = gzopen(path, "rb")
        }
        guard let handle else {
            throw PointFileError(path: path, reason: "cannot be read (\(String(cString: strerror(errno))))")
        }
        file = handle
        gzbuffer(file, 1 << 17)
        capacity = Self.chunkSize + Self.maximumKept
        storage = .allocate(capacity: capacity)
    }

    /// A guess of the points to come, from the lines in the first chunk and the file's size
    /// (for an uncompressed file), to size the index builder once; 0 when unknown.
    func estimatedLineCount() throws(PointFileError) -> Int {
        if end == 0 { _ = try refill(keepingFrom: 0, line: 1, what: "the first line") }
        guard end > 0, path != "-", gzdirect(file) == 1,
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > 0
        else { return 0 }
        var lines = 0
        for i in 0..<end where storage[i] == 10 { lines += 1 }
        if !atEnd && end < size {
            return min(size / 8, Int(Double(size) / Double(end) * Double(lines) * 1.02) + 16)
        }
        return lines + 1
    }

    deinit {
        gzclose(file)
        storage.deallocate()
    }

    /// Keeps `storage[keep..<end]`, moving it to the front, and reads up to a chunk more.
    /// Returns how far the kept bytes moved down (`keep`, or 0 once the input is over): the
    /// caller lowers the positions it holds by it, whether or not more bytes came. The input
    /// is over when `end` did not grow; `atEnd` then stays true.
    ///
    /// - Throws: a read error, a compressed stream that ends before its end (a truncated
    ///   gzip file, or one without its CRC32 and size trailer), or a kept span above
    ///   ``maximumKept`` bytes (`what` names it).
    func refill(keepingFrom keep: Int, line: Int, what: String) throws(PointFileError) -> Int {
        if atEnd { return 0 }
        let kept = end - keep
        guard kept <= Self.maximumKept else {
            throw PointFileError(
                path: path, line: line,
                reason: "\(what) is longer than \(Self.maximumKept) bytes; is this really a points file?")
        }
        if kept > 0 && keep > 0 {
            memmove(storage, storage + keep, kept)
            bytesMoved += kept
        }
        base += keep
        start -= keep
        end = kept
        let read = gzread(file, storage + end, UInt32(capacity - end))
        var code: Int32 = 0
        if read < 0 {
            // zlib's message is "its name for the file: what went wrong"; the name goes, as
            // the error names the file already.
            let text = gzerror(file, &code).map { String(cString: $0) } ?? "read error"
            let message = text.range(of: ": ", options: .backwards).map { String(text[$0.upperBound...]) } ?? text
            let hint = code == Z_ERRNO ? "" : " (a corrupt gzip file?)"
            throw PointFileError(path: path, reason: "cannot be read: \(message)\(hint)")
        }
        if read == 0 {
            // zlib reports a stream cut short (in the data or before the 8-byte trailer that
            // holds the CRC32 and size) as Z_BUF_ERROR, and returns 0 as if at the end.
            _ = gzerror(file, &code)
            if code == czlib_buf_error {
                throw PointFileError(path: path, reason: "the compressed data ends early: truncated file?")
            }
            atEnd = true
            return keep
        }
        end += Int(read)
        bytesRead += Int(read)
        return keep
    }
}

import Foundation

/// A file (or standard input) read in chunks of 1 MiB through ``GzipInput``, which inflates
/// gzip data and passes anything else through unchanged.
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
    private let source: GzipInput

    init(path: String) throws(PointFileError) {
        self.path = path
        let descriptor: Int32
        if path == "-" {
            descriptor = dup(STDIN_FILENO)
        } else {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw PointFileError(path: path, reason: "cannot be read: no such file")
            }
            guard !isFolder.boolValue else { throw PointFileError(path: path, reason: "is a folder, not a file") }
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            throw PointFileError(path: path, reason: "cannot be read (\(String(cString: strerror(errno))))")
        }
        source = GzipInput(path: path, descriptor: descriptor)
        capacity = Self.chunkSize + Self.maximumKept
        storage = .allocate(capacity: capacity)
    }

    /// A guess of the points to come, from the lines in the first chunk and the file's size
    /// (for an uncompressed file), to size the index builder once; 0 when unknown.
    func estimatedLineCount() throws(PointFileError) -> Int {
        if end == 0 { _ = try refill(keepingFrom: 0, line: 1, what: "the first line") }
        guard end > 0, path != "-", source.isDirect,
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > 0
        else { return 0 }
        var lines = 0
        for i in 0..<end where storage[i] == 10 { lines += 1 }
        if !atEnd && end < size {
            return min(size / 8, Int(Double(size) / Double(end) * Double(lines) * 1.02) + 16)
        }
        return lines + 1
    }

    deinit { storage.deallocate() }

    /// Keeps `storage[keep..<end]`, moving it to the front, and reads up to a chunk more.
    /// Returns how far the kept bytes moved down (`keep`, or 0 once the input is over): the
    /// caller lowers the positions it holds by it, whether or not more bytes came. The input
    /// is over when `end` did not grow; `atEnd` then stays true.
    ///
    /// - Throws: a read error, corrupt compressed data, a compressed stream that ends before
    ///   its end (a truncated gzip file, or one without its CRC32 and size trailer), bytes
    ///   after its last member that are neither another member nor zero padding, or a kept
    ///   span above ``maximumKept`` bytes (`what` names it).
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
        let read = try source.read(into: storage + end, count: capacity - end)
        if read == 0 {
            atEnd = true
            return keep
        }
        end += read
        bytesRead += read
        return keep
    }
}

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
    /// Returns how far the kept bytes moved down, or `nil` at the end of the input.
    ///
    /// - Throws: a read error, or a kept span above ``maximumKept`` bytes (`what` names it).
    func refill(keepingFrom keep: Int, line: Int, what: String) throws(PointFileError) -> Int? {
        if atEnd { return nil }
        let kept = end - keep
        guard kept <= Self.maximumKept else {
            throw PointFileError(
                path: path, line: line,
                reason: "\(what) is longer than \(Self.maximumKept) bytes; is this really a points file?")
        }
        if kept > 0 && keep > 0 { memmove(storage, storage + keep, kept) }
        base += keep
        start -= keep
        end = kept
        let read = gzread(file, storage + end, UInt32(capacity - end))
        if read < 0 {
            var code: Int32 = 0
            let message = gzerror(file, &code).map { String(cString: $0) } ?? "read error"
            throw PointFileError(path: path, reason: "cannot be read: \(message) (a truncated or corrupt gzip file?)")
        }
        if read == 0 {
            atEnd = true
            return nil
        }
        end += Int(read)
        return keep
    }
}

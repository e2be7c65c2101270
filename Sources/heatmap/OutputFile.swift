import Foundation

/// Where `tile` and `image` put what they draw: a file given with `--output`, else standard
/// output (never a terminal).
enum OutputFile {
    /// Writes `bytes` to `path`, or to standard output when `path` is `nil`.
    ///
    /// The file is written in place, not by `FileManager.createFile`, which renames a temporary
    /// file over the path: as root, `--output /dev/null` replaced the device with a regular file.
    ///
    /// - Parameter what: what the bytes are, for the refusal to write them to a terminal.
    static func write(_ bytes: [UInt8], to path: String?, what: String) throws(CommandError) {
        guard let path else {
            guard isatty(STDOUT_FILENO) == 0 else {
                throw .usage("refusing to write a binary \(what) to the terminal; give --output FILE or redirect")
            }
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw CommandError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        do {
            try handle.write(contentsOf: Data(bytes))
            try handle.close()
        } catch {
            throw CommandError("cannot write \(path): \(error.localizedDescription)")
        }
    }
}

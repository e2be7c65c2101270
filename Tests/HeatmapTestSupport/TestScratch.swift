import Foundation

/// The one temporary folder of this test process (`heatmap-scratch-PID`), under which every
/// test writes its files (``TestProgram/temporaryPath(_:_:)``, ``TemporaryFolder``, the reader
/// tests' thousands of small files), so that a run leaves nothing in the temporary directory: the
/// folder is removed when the process exits, and the folders of processes no longer running (a
/// run that crashed; the older `readers-UUID` folders, one per file) when it is first used.
public enum TestScratch {
    /// The folder, made (and the stale ones swept) on first use; removed at exit.
    public static let folder: URL = {
        let temporary = FileManager.default.temporaryDirectory
        sweep(temporary)
        let folder = temporary.appendingPathComponent("heatmap-scratch-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestScratch.folder) }
        return folder
    }()

    /// Removes the scratch folders of dead processes and the per-file folders older runs left.
    public static func sweep(_ temporary: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names {
            if name.hasPrefix("readers-"), UUID(uuidString: String(name.dropFirst("readers-".count))) != nil {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            } else if name.hasPrefix("heatmap-scratch-"), let pid = Int32(name.dropFirst("heatmap-scratch-".count)),
                pid != getpid(), !isRunning(pid)
            {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
    }

    /// Whether a process `pid` exists (`kill` with signal 0 finds it, or is refused it).
    public static func isRunning(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno == EPERM }
}

import Foundation

/// The one temporary folder of this test process (`heatmap-scratch-PID`), under which the
/// reader tests write their thousands of small files, so that a run leaves one folder behind
/// rather than one per file; the folders of processes no longer running (and the older
/// `readers-UUID` folders, one per file) are removed when it is first used.
enum TestScratch {
    /// The folder, made (and the stale ones swept) on first use.
    static let folder: URL = {
        let temporary = FileManager.default.temporaryDirectory
        sweep(temporary)
        let folder = temporary.appendingPathComponent("heatmap-scratch-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// Removes the scratch folders of dead processes and the per-file folders older runs left.
    static func sweep(_ temporary: URL) {
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
    static func isRunning(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno == EPERM }
}

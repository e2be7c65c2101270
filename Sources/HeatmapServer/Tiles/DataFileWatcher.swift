import Dispatch
import Synchronization

/// Watches data files for changes: every `interval` seconds it compares each file's
/// modification time, size and inode with the last ones seen, and calls `changed` with the
/// files that differ (appeared, vanished, rewritten or replaced). A file is reported once per
/// change, so a broken file's error is logged once, not on every check.
package final class DataFileWatcher {
    /// What identifies one version of a file; `nil` when it cannot be read.
    struct Signature: Equatable, Sendable {
        var seconds: Int
        var nanoseconds: Int
        var size: Int
        var inode: UInt64
    }

    /// The last signature seen of each file (the timer's handler owns it through this box).
    final class Seen: Sendable {
        let files: Mutex<[String: Signature?]>
        init(_ files: [String: Signature?]) { self.files = Mutex(files) }
    }

    private let timer: any DispatchSourceTimer

    /// Starts watching `paths`; `changed` runs on the watcher's own queue, one call at a time.
    ///
    /// - Parameter interval: seconds between checks (at least 0.05; default 2).
    package init(paths: [String], interval: Double = 2, changed: @escaping @Sendable ([String]) -> Void) {
        let seen = Seen(Dictionary(paths.map { ($0, Self.signature($0)) }, uniquingKeysWith: { a, _ in a }))
        let queue = DispatchQueue(label: "heatmap.watch")
        timer = DispatchSource.makeTimerSource(queue: queue)
        let period = DispatchTimeInterval.milliseconds(Int(min(max(interval, 0.05), 86400) * 1000))
        timer.schedule(deadline: .now() + period, repeating: period)
        timer.setEventHandler { [seen] in
            let differing = seen.files.withLock { seen in
                var differing: [String] = []
                for (path, old) in seen {
                    let now = Self.signature(path)
                    if now != old {
                        seen[path] = now
                        differing.append(path)
                    }
                }
                return differing.sorted()
            }
            if !differing.isEmpty { changed(differing) }
        }
        timer.resume()
    }

    /// Stops watching; no call of `changed` starts after it returns.
    package func stop() { timer.cancel() }

    deinit { timer.cancel() }

    static func signature(_ path: String) -> Signature? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Signature(
            seconds: Int(info.modificationTime.tv_sec), nanoseconds: Int(info.modificationTime.tv_nsec),
            size: Int(info.st_size),
            inode: UInt64(info.st_ino))
    }
}

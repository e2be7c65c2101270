import Foundation

/// Throwaway clusters left running by test processes that died (a crash, a kill, a timeout
/// before `atexit`): every cluster's folder holds an `owner` file with the pid and start time
/// of the test process that made it, and the first cluster a test process starts first stops
/// (`pg_ctl stop -m immediate`) and removes those whose owner is gone. A cluster of a live
/// process is never touched.
extension TestCluster {
    /// The file in a cluster's folder that names its owner: "PID STARTTIME".
    static let ownerFile = "owner"

    /// This process as an owner: its pid and its start time (clock ticks since boot, from
    /// /proc/PID/stat, so that a pid used again by another process is not taken for it).
    static var ownerLine: String { "\(getpid()) \(startTime(of: getpid()) ?? 0)\n" }

    /// The sweep of the temporary folder, once a process, before its first cluster.
    static let sweptAtStart: [String] = sweepStale(in: NSTemporaryDirectory())

    /// Stops and removes the `heatmap-pg-*` cluster folders in `directory` whose owning test
    /// process is gone (and the `heatmap-pg-output-*` files of programs they ran); returns
    /// the paths removed. A folder without an owner file (one being
    /// made, or made before owner files) counts as owned by the pid in its name.
    @discardableResult
    static func sweepStale(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var swept: [String] = []
        for name in names where name.hasPrefix("heatmap-pg-") {
            let folder = (directory.hasSuffix("/") ? directory : directory + "/") + name
            if name.hasPrefix("heatmap-pg-output-") {
                // A program's output file (see `run`) of a process that died while it ran.
                let pid = name.dropFirst("heatmap-pg-output-".count).split(separator: "-").first.flatMap { Int32($0) }
                if let pid, !isAlive((pid, nil)), (try? FileManager.default.removeItem(atPath: folder)) != nil {
                    swept.append(folder)
                }
                continue
            }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue,
                let owner = owner(of: folder, name: name), !isAlive(owner)
            else { continue }
            if FileManager.default.fileExists(atPath: folder + "/data/postmaster.pid"), let binaries = binariesFolder()
            {
                let stop = ["-D", folder + "/data", "-m", "immediate", "-w", "-t", "30", "stop"]
                if getuid() == 0 {
                    try? run("/usr/sbin/runuser", ["-u", "postgres", "--", binaries + "/pg_ctl"] + stop)
                } else {
                    try? run(binaries + "/pg_ctl", stop)
                }
            }
            if (try? FileManager.default.removeItem(atPath: folder)) != nil { swept.append(folder) }
        }
        return swept
    }

    /// The owner of a cluster folder: its owner file's pid and start time, else the pid in
    /// its name (`heatmap-pg-PID-RANDOM`), else nil (not ours to judge).
    static func owner(of folder: String, name: String) -> (pid: Int32, start: UInt64?)? {
        if let text = try? String(contentsOfFile: folder + "/" + ownerFile, encoding: .utf8) {
            let fields = text.split(whereSeparator: \.isWhitespace)
            if let first = fields.first, let pid = Int32(first) {
                let start = fields.dropFirst().first.flatMap { UInt64($0) }
                return (pid, start == 0 ? nil : start)
            }
        }
        let parts = name.dropFirst("heatmap-pg-".count).split(separator: "-")
        return parts.first.flatMap { Int32($0) }.map { ($0, nil) }
    }

    /// Whether the owner still runs: its pid answers signal 0 (EPERM counts: it is someone
    /// else's, alive) and, when its start time is known, it is the same process.
    static func isAlive(_ owner: (pid: Int32, start: UInt64?)) -> Bool {
        guard owner.pid > 0 else { return false }
        guard kill(owner.pid, 0) == 0 || errno == EPERM else { return false }
        guard let start = owner.start, let now = startTime(of: owner.pid) else { return true }
        return start == now
    }

    /// A process's start time in clock ticks since boot (field 22 of /proc/PID/stat).
    static func startTime(of pid: Int32) -> UInt64? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm) ": the state is field 3, so field 22 is the 20th from there.
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    /// The newest PostgreSQL's binaries, or nil when there are none.
    static func binariesFolder() -> String? {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: "\($0)/pg_ctl") }
    }
}

import Foundation
import HeatmapTestSupport

/// `heatmap serve` over the police stations fixture as its own process (black-box: its memory,
/// CPU time and descriptor limit are its own), on a free loopback port; `stop()` ends it.
final class ServeProcess: @unchecked Sendable {  // one thread at a time
    let process = Process()
    let port: Int
    private let errors = Pipe()

    /// Starts the server with extra flags; `descriptorLimit` runs it under `ulimit -n` (soft and
    /// hard, so the server cannot raise it).
    init(_ flags: [String], descriptorLimit: Int? = nil) throws {
        let command = [ServeCommandTests.executable.path, "serve", try TestServer.fixturePath(), "--port", "0"] + flags
        if let limit = descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(limit) && exec \"$@\"", "sh"] + command
        } else {
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
        }
        process.standardError = errors
        let (banner, started) = try process.runServing()
        guard let port = started else {
            process.terminate()
            throw TestClient.Failure(description: "the server did not start: \(banner)")
        }
        self.port = port
    }

    var pid: Int32 { process.processIdentifier }

    func client(timeout: Double = 10) throws -> TestClient { try TestClient(port: port, timeout: timeout) }

    /// SIGTERM, then the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// What the server wrote on standard error (after `stop()`).
    func errorOutput() -> String {
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Resident memory in bytes, from /proc/PID/status.
    func residentBytes() -> Int? { status("VmRSS:") }

    /// The most resident memory so far in bytes (VmHWM of /proc/PID/status).
    func peakResidentBytes() -> Int? { status("VmHWM:") }

    /// A size in kB of /proc/PID/status, in bytes.
    private func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field) {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// CPU time used so far (user + system), in seconds, from /proc/PID/stat.
    func cpuSeconds() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After "pid (comm) ": state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The open descriptors of the server, from /proc/PID/fd.
    func openDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }
}

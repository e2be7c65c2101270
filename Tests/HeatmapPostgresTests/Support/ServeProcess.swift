import Foundation
import HeatmapTestSupport

/// `heatmap serve` as its own process on a free loopback port (`--port 0`, the port read from
/// its first line), with extra environment; ``stop()`` ends it and gives what it printed.
final class ServeProcess: @unchecked Sendable {  // one thread at a time
    let process = Process()
    let port: Int
    private let output = Pipe()
    private let errors: PipeReader

    /// Starts `heatmap serve` with `arguments` (after `serve`); throws with its standard error
    /// when it exits before saying where it listens.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = TestProgram.heatmap
        process.arguments = ["serve", "--port", "0"] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let errorPipe = Pipe()
        process.standardOutput = output
        process.standardError = errorPipe
        try process.run()
        errors = PipeReader(errorPipe.fileHandleForReading)
        var banner = ""
        while !banner.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        guard let port = banner.split(separator: ":").last.flatMap({ Int($0.prefix { $0.isNumber }) }) else {
            process.waitUntilExit()
            throw ServeFailure(description: "heatmap serve did not start: \(banner) \(errors.text())")
        }
        self.port = port
    }

    /// A test that throws before ``stop()`` leaves no server behind.
    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// The server's base URL.
    var base: String { "http://127.0.0.1:\(port)" }

    /// SIGTERM, then what it wrote on standard error.
    func stop() -> String {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return errors.text()
    }

    struct ServeFailure: Error, CustomStringConvertible {
        var description: String
    }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeReader: @unchecked Sendable {  // `data` is written before `done` is signalled
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything read, once the writer closed the pipe.
    func text() -> String {
        done.wait()
        done.signal()
        return String(decoding: data, as: UTF8.self)
    }
}

import Foundation
import Synchronization

/// Programs run by the tests to their end: the built `heatmap` command beside the test bundle,
/// and others found on `PATH`.
public enum TestProgram {
    /// What a run printed and how it ended.
    public struct Run: Sendable {
        /// The exit status (or the signal's number when it ended by one).
        public var status: Int32
        /// Whether it exited or was ended by a signal.
        public var reason: Process.TerminationReason
        /// Standard output, as UTF-8.
        public var standardOutput: String
        /// Standard error, as UTF-8.
        public var standardError: String
    }

    /// The built `heatmap` executable beside the test bundle.
    public static var heatmap: URL {
        let products = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundleURL
            .deletingLastPathComponent()
        return (products ?? Bundle.main.bundleURL).appendingPathComponent("heatmap")
    }

    /// Runs `heatmap` with `arguments` to its end (see ``run(_:_:input:environment:)``).
    public static func heatmap(_ arguments: [String], input: Data? = nil, environment: [String: String] = [:]) throws
        -> Run
    {
        try run(heatmap, arguments, input: input, environment: environment)
    }

    /// Runs a program to its end (bounded: the programs run here end by themselves in seconds),
    /// `input` written to its standard input when given, `environment` added to the test's.
    /// Standard error is collected on another thread, so a program filling both pipes never blocks.
    public static func run(
        _ executable: URL, _ arguments: [String], input: Data? = nil, environment: [String: String] = [:]
    ) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let inputPipe = Pipe()
        if input != nil { process.standardInput = inputPipe }
        try process.run()
        let errorText = PipeCollector(errors.fileHandleForReading)
        if let input {
            inputPipe.fileHandleForWriting.write(input)
            try inputPipe.fileHandleForWriting.close()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, reason: process.terminationReason,
            standardOutput: String(decoding: outputData, as: UTF8.self), standardError: errorText.text())
    }

    /// The path of a program on `PATH`, if any.
    public static func program(_ name: String) -> URL? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// A fresh path in the process's scratch folder, `PREFIX-UUID-NAME` (nothing made there; the
    /// folder goes when the process exits, see ``TestScratch``).
    public static func temporaryPath(_ prefix: String, _ name: String) -> String {
        TestScratch.folder.appendingPathComponent("\(prefix)-\(UUID().uuidString)-\(name)").path
    }
}

/// Reads a pipe to its end on another thread, so that a process filling both pipes never blocks.
public final class PipeCollector: Sendable {
    private let data = Mutex(Data())
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading `handle` to its end.
    public init(_ handle: FileHandle) {
        DispatchQueue.global().async { [self] in
            let read = handle.readDataToEndOfFile()
            data.withLock { $0 = read }
            done.signal()
        }
    }

    /// Waits for the end of the pipe; what it held, as UTF-8.
    public func text() -> String {
        done.wait()
        return String(decoding: data.withLock { $0 }, as: UTF8.self)
    }
}

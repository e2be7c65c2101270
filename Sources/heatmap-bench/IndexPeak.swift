import Foundation
import HeatmapCore
import HeatmapKit

/// The peak memory of building an index, measured in a fresh process.
///
/// In the benchmark's own process, memory freed by earlier steps is reused without raising
/// the resident size, which hides the build's peak. A child process (this executable with
/// ``childFlag``) generates the same points, resets the kernel's peak counter, builds the
/// index and prints the growth of its peak resident memory in bytes. Linux only.
enum IndexPeak {
    /// The first argument that makes the executable the child: `--index-peak-child N SEED`.
    static let childFlag = "--index-peak-child"

    /// The child's work: builds the index of `count` generated points and prints the bytes
    /// by which the process's peak resident memory grew.
    static func runChild(arguments: [String]) -> Never {
        guard arguments.count == 2, let count = Int(arguments[0]), let seed = UInt64(arguments[1]) else { exit(64) }
        let data = SyntheticData(count: count, seed: seed)
        Measure.resetPeak()
        let before = Measure.residentBytes
        guard let index = try? PointIndex(points: data.points) else { exit(65) }
        let peak = Measure.peakBytes - before
        print(peak, index.count)
        exit(0)
    }

    /// The peak growth in bytes of building the index of `count` points generated from
    /// `seed`, from a child process; nil where that cannot be measured.
    static func measure(count: Int, seed: UInt64) -> Int? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [childFlag, String(count), String(seed)]
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard process.terminationStatus == 0, fields.count == 2, fields[1] == count, fields[0] > 0 else { return nil }
        return fields[0]
    }
}

import Foundation

/// What the benchmark ran on.
struct Machine: Codable {
    var processor: String
    var cores: Int
    var memoryGiB: Double
    var system: String
    var date: String
    /// The load averages (1, 5 and 15 minutes) when the run began: the machine is shared.
    var loadAverage: [Double]?

    static func describe() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model =
            cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) }
            ?? "unknown"
        let info = ProcessInfo.processInfo
        return Machine(
            processor: model, cores: info.activeProcessorCount,
            memoryGiB: (Double(info.physicalMemory) / Double(1 << 30) * 10).rounded() / 10,
            system: info.operatingSystemVersionString, date: ISO8601DateFormatter().string(from: Date()),
            loadAverage: ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "")
                .split(separator: " ").prefix(3).compactMap { Double($0) })
    }
}

import Foundation

extension Measure {
    /// Another process's resident memory now and at its peak (VmRSS, VmHWM of
    /// /proc/PID/status, Linux only; 0 elsewhere).
    static func resident(of pid: Int32) -> (resident: Int, peak: Int) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return (0, 0) }
        func field(_ name: String) -> Int {
            for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
                let number = line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ")
                return (Int(number.first ?? "") ?? 0) * 1024
            }
            return 0
        }
        return (field("VmRSS"), field("VmHWM"))
    }
}

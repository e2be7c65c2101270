import Dispatch
import Foundation
import HeatmapTiles

/// `heatmap render`'s progress on standard error: on a terminal a bar redrawn four times a
/// second (tiles done/total, rate, time left); otherwise a plain line every 10 seconds;
/// nothing with `--quiet`. Then the summary.
final class RenderProgressDisplay {
    let progress: RenderProgress
    let output: String
    let quiet: Bool
    let terminal = isatty(STDERR_FILENO) == 1
    let started = DispatchTime.now()
    /// Made and resumed only when shown (a dispatch source released while suspended traps).
    private var timer: (any DispatchSourceTimer)?

    init(progress: RenderProgress, output: String, quiet: Bool) {
        self.progress = progress
        self.output = output
        self.quiet = quiet
    }

    func counting() {
        guard !quiet, terminal else { return }
        write("\rheatmap: finding the tiles that hold data…")
    }

    func start() {
        guard !quiet else { return }
        let interval = terminal ? 0.25 : 10
        let timer = DispatchSource.makeTimerSource(queue: .global())
        self.timer = timer
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [progress, terminal, started] in
            let line = Self.line(progress, started: started)
            Self.write(terminal ? "\r" + line + "\u{1b}[K" : "heatmap: " + line + "\n")
        }
        timer.resume()
    }

    func stop() {
        guard let timer else { return }
        timer.cancel()
        self.timer = nil
        if terminal { write("\r\u{1b}[K") }
    }

    /// `[#####-----] 1,234/5,678 tiles 22%  345 tiles/s  0:12 left`.
    static func line(_ progress: RenderProgress, started: DispatchTime) -> String {
        let total = progress.total.load(ordering: .relaxed)
        let done = progress.done
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
        let width = 24
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
        let left = rate > 0 ? Self.clock(Double(max(0, total - done)) / rate) + " left" : "--:-- left"
        return
            "\(bar) \(Self.grouped(done))/\(Self.grouped(total)) tiles \(Int(fraction * 100))%  \(Int(rate)) tiles/s  \(left)"
    }

    func summarize(_ summary: RenderSummary) {
        guard !quiet else { return }
        let rate = summary.seconds > 0 ? Double(summary.written + summary.empty) / summary.seconds : 0
        var text =
            "heatmap: \(output): \(Self.grouped(summary.written)) tiles written, \(Self.grouped(summary.empty)) empty"
        if summary.resumed > 0 { text += ", \(Self.grouped(summary.resumed)) kept from before" }
        text += "; \(Self.bytes(summary.bytes)) in \(String(format: "%.1f", summary.seconds)) s (\(Int(rate)) tiles/s)"
        if summary.interrupted {
            text +=
                summary.kept
                ? "\nheatmap: interrupted: \(output) is valid and holds the tiles finished; --resume continues"
                : "\nheatmap: interrupted: no file was written (PMTiles is written whole at the end)"
        }
        write(text + "\n")
    }

    private func write(_ text: String) { Self.write(text) }

    private static func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }

    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out
    }

    static func bytes(_ count: Int) -> String {
        if count < 10_000 { return "\(count) bytes" }
        if count < 1_000_000 { return String(format: "%.1f kB", Double(count) / 1e3) }
        return String(format: "%.1f MB", Double(count) / 1e6)
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(min(seconds, 359_999))
        return s >= 3600
            ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}

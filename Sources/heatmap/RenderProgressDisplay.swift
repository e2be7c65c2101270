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

    static func line(_ progress: RenderProgress, started: DispatchTime) -> String {
        progress.statusLine(seconds: Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9)
    }

    func summarize(_ summary: RenderSummary) {
        guard !quiet else { return }
        write(summary.text(output: output).split(separator: "\n").map { "heatmap: " + $0 + "\n" }.joined())
    }

    private func write(_ text: String) { Self.write(text) }

    private static func write(_ text: String) { StandardStreams.error(text) }
}

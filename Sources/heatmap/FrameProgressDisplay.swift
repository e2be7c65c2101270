import Dispatch
import Foundation

/// A progress bar on standard error for a long run of frames (an animation), shown only when
/// standard error is a terminal: `heatmap: frame 12/24 [######      ] 50%, 3 s left`, redrawn
/// in place at most four times a second and cleared at the end. An animation on the frames'
/// largest M(z) first searches each frame (`heatmap: scale 12/24 …`), then draws them.
final class FrameProgressDisplay {
    let total: Int
    let shown: Bool
    private var started = DispatchTime.now()
    private var stage = "frame"
    private var lastDrawn: UInt64 = 0

    /// A display for `total` frames; silent when `quiet` or when standard error is no terminal.
    init(total: Int, quiet: Bool = false) {
        self.total = total
        shown = !quiet && isatty(STDERR_FILENO) == 1
    }

    /// Says that `done` frames are finished; `stage` names what is done to them.
    func update(done: Int, stage: String = "frame") {
        guard shown else { return }
        if stage != self.stage {
            self.stage = stage
            started = DispatchTime.now()
        }
        let now = DispatchTime.now().uptimeNanoseconds
        guard done == total || now - lastDrawn >= 250_000_000 else { return }
        lastDrawn = now
        let seconds = Double(now - started.uptimeNanoseconds) / 1e9
        StandardStreams.error("\r" + Self.line(done: done, total: total, seconds: seconds, stage: stage) + "\u{1b}[K")
    }

    /// Clears the bar.
    func finish() {
        guard shown else { return }
        StandardStreams.error("\r\u{1b}[K")
    }

    /// The bar's text after `done` of `total` frames in `seconds`.
    static func line(done: Int, total: Int, seconds: Double, stage: String = "frame", width: Int = 24) -> String {
        let total = max(1, total)
        let done = min(max(0, done), total)
        let filled = done * width / total
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        var text = "heatmap: \(stage) \(done)/\(total) [\(bar)] \(done * 100 / total)%"
        if done > 0, done < total, seconds.isFinite, seconds > 0 {
            let left = seconds / Double(done) * Double(total - done)
            text += ", \(Int(left.rounded(.up))) s left"
        }
        return text
    }
}

import Foundation

extension RenderProgress {
    /// One progress line: `[######------------------] 1,234/5,678 tiles 21%  345 tiles/s  0:12 left`,
    /// after `seconds` of rendering.
    package func statusLine(seconds: Double) -> String {
        let total = total.load(ordering: .relaxed)
        let done = done
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
        let width = 24
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
        let left = rate > 0 ? RenderText.clock(Double(max(0, total - done)) / rate) + " left" : "--:-- left"
        let counts = "\(RenderText.grouped(done))/\(RenderText.grouped(total)) tiles \(Int(fraction * 100))%"
        return "\(bar) \(counts)  \(Int(rate)) tiles/s  \(left)"
    }
}

extension RenderSummary {
    /// The summary `heatmap render` prints: tiles written, empty and kept, bytes, time, and
    /// what an interruption left.
    package func text(output: String) -> String {
        let rate = seconds > 0 ? Double(written + empty) / seconds : 0
        var text = "\(output): \(RenderText.grouped(written)) tiles written, \(RenderText.grouped(empty)) empty"
        if resumed > 0 { text += ", \(RenderText.grouped(resumed)) kept from before" }
        text += "; \(RenderText.bytes(bytes)) in \(String(format: "%.1f", seconds)) s (\(Int(rate)) tiles/s)"
        if interrupted {
            text +=
                kept
                ? "\ninterrupted: \(output) is valid and holds the tiles finished; --resume continues"
                : "\ninterrupted: no file was written (PMTiles is written whole at the end)"
        }
        return text
    }
}

/// Numbers as the progress and summary print them.
enum RenderText {
    /// `1,234,567`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, c != "-", (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out
    }

    /// `812 bytes`, `45.3 kB`, `21.1 MB`.
    static func bytes(_ count: Int) -> String {
        if count < 10_000 { return "\(count) bytes" }
        if count < 1_000_000 { return String(format: "%.1f kB", Double(count) / 1e3) }
        return String(format: "%.1f MB", Double(count) / 1e6)
    }

    /// `m:ss`, or `h:mm:ss` from an hour (at most 99:59:59).
    static func clock(_ seconds: Double) -> String {
        let s = Int(min(max(seconds, 0), 359_999))
        return s >= 3600
            ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}

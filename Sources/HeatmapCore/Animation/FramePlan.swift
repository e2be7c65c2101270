/// The frames of an animation over the half-open interval [``start``, ``end``) of Unix seconds:
/// frame `k` shows the window that opens ``step`` × `k` after ``start`` and lasts ``window``,
/// cut at ``end`` (so nothing outside the interval is drawn, and every instant of it is in a
/// frame when the window is at least the step). Frames run while their window opens before
/// ``end``.
///
/// The frames are computed when read, never stored: a plan of 10,000 frames is a few words.
/// Months are calendar months in UTC, counted from ``start`` (2024-01-31 plus one month is
/// 2024-02-29).
package struct FramePlan: Sendable, Hashable, RandomAccessCollection {
    /// The most frames a plan holds.
    package static let maximumFrameCount = 10_000

    /// One frame's window: the half-open interval [`start`, `end`) of Unix seconds.
    package struct Window: Sendable, Hashable {
        /// The first second in the window.
        package let start: Int
        /// The first second after the window.
        package let end: Int

        /// Creates a window.
        package init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }
    }

    /// The first second of the interval.
    package let start: Int
    /// The first second after the interval.
    package let end: Int
    /// From one frame's window to the next's.
    package let step: TimeStep
    /// The length of each frame's window (before it is cut at ``end``).
    package let window: TimeStep
    /// The number of frames.
    package let count: Int

    /// Plans the frames of [`start`, `end`) in steps of `step`, each showing `window`.
    ///
    /// - Throws: ``FramePlanError`` when the interval is empty, reversed or outside years 1 to
    ///   9999 (naming it), or when the step would make more than ``maximumFrameCount`` frames
    ///   (naming the step, the interval and the count, which is found without making the frames).
    /// - Complexity: O(1).
    package init(start: Int, end: Int, step: TimeStep, window: TimeStep) throws(FramePlanError) {
        let interval = "\(Self.text(start))/\(Self.text(end))"
        guard CivilTime.range.contains(start), CivilTime.range.contains(end) else {
            throw FramePlanError(
                .badInterval, "the interval \(interval) reaches outside the years 1 to 9999")
        }
        guard start < end else {
            throw FramePlanError(
                .badInterval,
                "the interval \(interval) is \(start == end ? "empty" : "reversed"): its end must come after its start")
        }
        let count = Self.count(start: start, end: end, step: step)
        guard count <= Self.maximumFrameCount else {
            throw FramePlanError(
                .tooManyFrames,
                "the step \(step) makes \(count) frames over \(interval), over the limit of "
                    + "\(Self.maximumFrameCount); use a longer step or a shorter interval")
        }
        self.start = start
        self.end = end
        self.step = step
        self.window = window
        self.count = count
    }

    /// The number of steps that open before `end`, up to one past ``maximumFrameCount``·100.
    static func count(start: Int, end: Int, step: TimeStep) -> Int {
        if let unitSeconds = step.unit.seconds {
            let seconds = step.count * unitSeconds  // At most 10⁶ weeks: no overflow.
            return (end - start - 1) / seconds + 1
        }
        // Months: the month difference, then corrected by at most a step or two either way.
        guard let first = CivilTime(unixSeconds: start), let last = CivilTime(unixSeconds: end) else { return 0 }
        var k = Swift.max(0, ((last.year - first.year) * 12 + last.month - first.month) / step.count)
        while k > 0, (step.advance(start, times: k) ?? Int.max) >= end { k -= 1 }
        while let next = step.advance(start, times: k + 1), next < end { k += 1 }
        return k + 1
    }

    /// The index of the first frame.
    package var startIndex: Int { 0 }
    /// One past the index of the last frame.
    package var endIndex: Int { count }

    /// The window of frame `index`.
    ///
    /// - Precondition: `0 <= index < count`.
    package subscript(index: Int) -> Window {
        precondition(indices.contains(index), "frame \(index) is outside 0..<\(count)")
        // Frames open before `end`, which lies in CivilTime.range: advance finds every one.
        let opens = step.advance(start, times: index) ?? end
        let closes = window.advance(opens, times: 1) ?? end
        return Window(start: opens, end: Swift.min(closes, end))
    }

    /// `seconds` as `2024-03-01T00:00:00Z`, or the number when outside ``CivilTime/range``.
    static func text(_ seconds: Int) -> String {
        guard let civil = CivilTime(unixSeconds: seconds) else { return "\(seconds)" }
        let time = civil.timeText
        return "\(civil.dateText)T\(time.count == 5 ? time + ":00" : time)Z"
    }
}

extension FramePlan.Window {
    /// The window as a frame says it in its corner: `2024-03-01 – 2024-03-08` when both ends are
    /// midnights (UTC), else with times, `2024-03-01 13:00 – 14:00 UTC`, the end's date written
    /// only when it differs. The end is the first instant after the window.
    package var label: String {
        guard let from = CivilTime(unixSeconds: start), let to = CivilTime(unixSeconds: end) else {
            return "\(start) – \(end)"
        }
        if from.secondOfDay == 0, to.secondOfDay == 0 { return "\(from.dateText) – \(to.dateText)" }
        let endText = to.dateText == from.dateText ? to.timeText : "\(to.dateText) \(to.timeText)"
        return "\(from.dateText) \(from.timeText) – \(endText) UTC"
    }
}

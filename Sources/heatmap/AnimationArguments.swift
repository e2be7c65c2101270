import HeatmapCore
import HeatmapKit

/// `heatmap image`'s `--step` and `--window`: an animation's step from frame to frame and the
/// window each frame shows (`1h`, `1d`, `7d`, `1w`, `1mo`; the window defaults to the step),
/// over the interval `--datetime START/END`.
struct AnimationArguments {
    static let valued: Set<String> = ["step", "window"]

    static let help = """
          --step STEP        animate: one frame every STEP (1h, 1d, 1w, 1mo: calendar months, UTC) over
                             --datetime START/END (an open end is the first or last time of the points
                             the window and --category keep), written as an APNG; needs --time COL
          --window LENGTH    the time each frame shows (default: the step), such as 7d
        """

    var step: TimeStep
    var window: TimeStep

    /// The step and window given, `nil` when neither was.
    ///
    /// - Throws: ``CommandError`` (usage) naming the option and its text when a value is not a
    ///   positive whole number of hours, days, weeks or months, or when `--window` comes without `--step`.
    static func parse(_ list: ArgumentList) throws(CommandError) -> AnimationArguments? {
        let stepText = list.text("step")
        let windowText = list.text("window")
        guard stepText != nil || windowText != nil else { return nil }
        guard let stepText else {
            throw .usage("--window \(windowText ?? "") needs --step: the window of each frame of an animation")
        }
        do {
            let step = try TimeStep(parsing: stepText, name: "--step")
            let window = try windowText.map { (text) throws(FramePlanError) in
                try TimeStep(parsing: text, name: "--window")
            }
            return AnimationArguments(step: step, window: window ?? step)
        } catch {
            throw .usage(error.message)
        }
    }
}

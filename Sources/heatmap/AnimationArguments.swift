import HeatmapCore
import HeatmapKit

/// `heatmap image`'s `--step` and `--window`: an animation's step from frame to frame and the
/// window each frame shows (`1h`, `1d`, `7d`, `1w`, `1mo`; the window defaults to the step).
///
/// The frames are windows of `--datetime START/END`, drawn with the time filter (issue 28);
/// until that is in the build, a step is parsed and checked, then refused naming what is missing.
struct AnimationArguments {
    static let valued: Set<String> = ["step", "window"]

    static let help = """
          --step STEP        animate: one frame every STEP (1h, 1d, 1w, 1mo: calendar months, UTC) over
                             --datetime START/END, written as an APNG
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

    /// Why this build cannot animate: the frames are windows of `--datetime`, which comes with
    /// the time filter.
    var refusal: CommandError {
        .usage(
            "--step \(step) animates over --datetime START/END, and this build has no time filter yet "
                + "(issue 28 brings --time and --datetime); nothing was drawn")
    }
}

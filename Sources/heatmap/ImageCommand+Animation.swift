import HeatmapCore
import HeatmapKit

extension ImageCommand {
    /// `heatmap image … --datetime A/B --step S [--window W]`: an APNG of the viewport, a frame
    /// per step of the interval showing the points of its window, streamed to the output a
    /// frame at a time, with a progress bar on a terminal.
    func runAnimation(
        _ animation: AnimationArguments, filters: (any FilterSource)?, whole: HeatmapTileLayer, base: URLTileLayer?
    ) throws(CommandError) {
        guard let index = filters else {
            throw .usage("--step \(animation.step) animates the points' times: give --time COL")
        }
        let prepared: HeatmapAnimation.Prepared
        do {
            prepared = try HeatmapAnimation.prepare(
                filter ?? LayerFilterRequest(), step: animation.step, window: animation.window, viewport: viewport,
                source: index, whole: whole, settings: settings, base: base)
        } catch let error as FramePlanError where error.kind == .keepsNothing {
            // A valid request with nothing to draw: no file, as `tile` writes none for no tile.
            throw CommandError("\(error.message); nothing was written")
        } catch let error as FramePlanError {
            throw .usage("--datetime \(filter?.window ?? .all), --step \(animation.step): \(error.message)")
        } catch let error as FilterError {
            throw .usage(error.description)
        } catch {
            throw CommandError("\(error)")
        }
        let display = FrameProgressDisplay(total: prepared.animation.plan.count)
        defer { display.finish() }
        try OutputFile.stream(to: output, what: "animation") { (write) throws(CommandError) in
            do {
                try prepared.animation.write(
                    frames: prepared.frames, scale: prepared.scale,
                    progress: { display.update(done: $1, stage: $0.rawValue) }, to: { (bytes) in try write(bytes) })
            } catch let error as CommandError {
                throw error
            } catch {
                throw CommandError("\(error)")
            }
        }
    }
}

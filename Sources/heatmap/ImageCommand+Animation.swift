import HeatmapCore
import HeatmapKit

extension ImageCommand {
    /// `heatmap image … --datetime A/B --step S [--window W]`: an APNG of the viewport, a frame
    /// per step of the interval showing the points of its window, streamed to the output a
    /// frame at a time, with a progress bar on a terminal.
    func runAnimation(_ animation: AnimationArguments, file: PointFile, base: URLTileLayer?) throws(CommandError) {
        guard let index = file.filters else {
            throw .usage("--step \(animation.step) animates the points' times: give --time COL")
        }
        let filter = filters
        let masks: [[Bool]?]
        do {
            masks = try PointFilter(window: .all, categories: filter.categories, dictionaries: index.dictionaries).masks
        } catch {
            throw .usage(error.description)
        }
        let plan = try animation.plan(filter.interval, timeRange: index.timeRange)
        let frameSettings = HeatmapAnimation.frameSettings(settings)
        let frames = FilteredFrames(index: index, masks: masks, settings: frameSettings, base: base)
        let scale: AnimationScale
        if let fixed = settings.maximumIntensity {
            scale = .fixed(fixed)
        } else if filter.scaleOfAll {
            do {
                scale = .fixed(
                    try HeatmapTileLayer(file: file, settings: frameSettings).normalizationDetails(
                        zoom: viewport.zoom, scale: viewport.scale
                    ).value)
            } catch {
                throw CommandError("\(error)")
            }
        } else {
            scale = .maximumOfFrames
        }
        let movie = HeatmapAnimation(plan: plan, viewport: viewport, settings: frameSettings, overBase: base != nil)
        let display = FrameProgressDisplay(total: plan.count)
        defer { display.finish() }
        try OutputFile.stream(to: output, what: "animation") { (write) throws(CommandError) in
            do {
                try movie.write(
                    frames: frames, scale: scale, progress: { display.update(done: $1, stage: $0.rawValue) },
                    to: { (bytes) in try write(bytes) })
            } catch let error as CommandError {
                throw error
            } catch {
                throw CommandError("\(error)")
            }
        }
    }
}

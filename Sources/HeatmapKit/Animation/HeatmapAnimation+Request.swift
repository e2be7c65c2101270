import HeatmapCore

extension HeatmapAnimation {
    /// What an animation request needs besides its frames: the animation, its frames and
    /// their one scale.
    package struct Prepared {
        /// The frames' plan, viewport and colours.
        package var animation: HeatmapAnimation
        /// What the frames are drawn from.
        package var frames: FilteredFrames
        /// The scale every frame is drawn on.
        package var scale: AnimationScale
    }

    /// The animation `heatmap image --step` and `/static/…png?step=` draw, the same for both:
    /// frames every `step` over `request`'s window (its open ends the data's time range), each
    /// showing `window` of the points `request`'s categories keep, over `base` if given, on
    /// the fixed maximum of `settings`, else all the points' M(z) (`scale-of=all`, from
    /// `whole`), else the frames' largest.
    ///
    /// - Throws: ``FramePlanError`` for an interval or step that makes no plan (reversed, too
    ///   many frames), ``FilterError`` for a category the data do not have (both name the
    ///   value: the caller's 64 or 400), ``HeatmapError`` from the data.
    package static func prepare(
        _ request: LayerFilterRequest, step: TimeStep, window: TimeStep, viewport: Viewport,
        source: any FilterSource, whole: HeatmapTileLayer, settings: HeatmapSettings, base: (any TileLayer)?
    ) throws -> Prepared {
        let facets = source.facets
        let plan = try FramePlan(interval: request.window, timeRange: facets.timeRange, step: step, window: window)
        let masks = try PointFilter(window: .all, categories: request.categories, dictionaries: facets.dictionaries)
            .masks
        let drawn = frameSettings(settings)
        let scale: AnimationScale
        if let fixed = drawn.maximumIntensity {
            scale = .fixed(fixed)
        } else if request.scale == .all {
            let all = try whole.filterSettings(drawn, scale: .all, zoom: viewport.zoom, scale: viewport.scale)
            scale = all.maximumIntensity.map { .fixed($0) } ?? .maximumOfFrames
        } else {
            scale = .maximumOfFrames
        }
        return Prepared(
            animation: HeatmapAnimation(plan: plan, viewport: viewport, settings: drawn, overBase: base != nil),
            frames: FilteredFrames(source: source, masks: masks, settings: drawn, base: base), scale: scale)
    }
}

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
    /// frames every `step` over `request`'s window (an open end closing on the first or last
    /// point it and the categories keep, see ``keptTimes(_:masks:source:)``), each
    /// showing `window` of the points `request`'s categories keep, over `base` if given, on
    /// the fixed maximum of `settings`, else all the points' M(z) (`scale-of=all`, from
    /// `whole`), else the frames' largest.
    ///
    /// - Throws: ``FramePlanError`` for an interval or step that makes no plan (reversed, too
    ///   many frames; ``FramePlanError/Kind/keepsNothing`` for an open end with no point kept
    ///   to close it on), ``FilterError`` for a category the data do not have (both name the
    ///   value: the caller's 64 or 400), ``HeatmapError`` from the data.
    package static func prepare(
        _ request: LayerFilterRequest, step: TimeStep, window: TimeStep, viewport: Viewport,
        source: any FilterSource, whole: HeatmapTileLayer, settings: HeatmapSettings, base: (any TileLayer)?
    ) throws -> Prepared {
        let facets = source.facets
        let masks = try PointFilter(window: .all, categories: request.categories, dictionaries: facets.dictionaries)
            .masks
        let kept = try keptTimes(request, masks: masks, source: source)
        let plan = try FramePlan(interval: request.window, timeRange: kept, step: step, window: window)
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

    /// The times an open end of `request`'s window closes on: the first and last second of the
    /// points the window and the categories (`masks`) keep, so that a category's animation
    /// starts at its first point and ends after its last, not the data's. Without categories,
    /// the data's time range within the window (no pass over the points: its first or last
    /// point lies in a half-open window exactly when the range meets it); with categories, the
    /// source's answer (a file's index, a table's statement with the values bound). Both ends
    /// given: the data's range, unused.
    ///
    /// - Throws: ``FramePlanError`` of kind ``FramePlanError/Kind/keepsNothing`` when an end is
    ///   open and no point is kept; ``HeatmapError`` from the source.
    static func keptTimes(_ request: LayerFilterRequest, masks: [[Bool]?], source: any FilterSource) throws
        -> ClosedRange<Int64>?
    {
        let window = request.window
        guard window.start == nil || window.end == nil, let all = source.facets.timeRange else {
            return source.facets.timeRange
        }
        let kept: ClosedRange<Int64>?
        if masks.allSatisfy({ $0 == nil }) {
            let low = max(all.lowerBound, window.start ?? all.lowerBound)
            let high = min(all.upperBound, window.end.map { $0 - 1 } ?? all.upperBound)
            kept = low <= high ? low...high : nil
        } else {
            kept = try source.timeRange(keeping: PointFilter(window: window, masks: masks))
        }
        guard let kept else {
            let categories = request.categories.map { " of category \($0.queryText)" }.joined(separator: " and")
            throw FramePlanError(
                .keepsNothing,
                "the interval \(window) keeps no point\(categories), "
                    + "so its open end closes on nothing: there is nothing to animate (give both ends to draw "
                    + "the interval's empty frames)")
        }
        return kept
    }
}

import HeatmapCore

/// What an animation draws its frames from: for each frame's time window, the heatmap of the
/// points the window (and the request's categories) keeps. The command reads them from a file
/// and the server from a hosted layer; ``HeatmapAnimation`` does the rest the same way for both.
package protocol AnimationFrames {
    /// The normalisation value M(z) the points of `window` alone would have at `zoom` and
    /// `scale` (as their still image would be drawn: the fixed maximum, a percentile or the
    /// exact maximum), 0 when the window keeps no weight.
    func normalization(of window: FramePlan.Window, zoom: Int, scale: Int) throws -> Double

    /// The image of `viewport` drawn from the points of `window` with intensities divided by
    /// `maximumIntensity`; `nil` when a tile is not available yet.
    func image(of window: FramePlan.Window, viewport: Viewport, maximumIntensity: Double) throws -> RGBAImage?
}

/// The colour scale an animation is drawn with: one value M for every frame, so frames compare.
package enum AnimationScale: Sendable, Hashable {
    /// The largest M(z) of the frames' own (`scale-of=filter`): the brightest frame reaches the
    /// top colour, and each other frame is drawn on the same scale.
    case maximumOfFrames
    /// A value given: the fixed maximum, or M(z) of all the points (`scale-of=all`).
    case fixed(Double)
}

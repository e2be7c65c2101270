import HeatmapCore

/// An animated heatmap of one viewport: a frame per window of a ``FramePlan``, each drawn on one
/// colour scale with its window written in a corner, streamed out as an APNG. The command's
/// `heatmap image --step` and the server's `/static/…png?step=` both write through it, so the
/// same request gives the same bytes.
package struct HeatmapAnimation: Sendable {
    /// The frames' windows.
    package var plan: FramePlan
    /// What every frame shows.
    package var viewport: Viewport
    /// The frames' colour map, when every pixel of a frame is one of its entries (a heatmap
    /// alone, not over a base map): the APNG's shared palette is then its entries and the
    /// label's two colours. `nil` writes RGBA frames.
    package var colorMap: ColorMap?
    /// How long each frame shows.
    package var delay: Duration = .milliseconds(500)
    /// Where the window's label goes.
    package var corner: RGBAImage.Corner = .bottomLeft

    /// What an animation is doing, for a progress display.
    package enum Stage: String, Sendable {
        /// Finding a frame's M(z), for the scale.
        case scale
        /// Drawing and writing a frame.
        case frame
    }

    /// The label's ink and halo.
    package static let labelColors = [RGBAColor(red: 255, green: 255, blue: 255), RGBAColor(red: 0, green: 0, blue: 0)]

    /// The largest colour map an animation's frames keep in one shared palette: 253 entries,
    /// transparent black and the label's two colours make 256 (a still image's 255 would not fit).
    package static let paletteColorMapSize = 253

    /// How frames are deflated: as a still `heatmap image` is (zlib's default level, adaptive
    /// filters), the same for the command and the server.
    package static let encoder = PNGEncoder(
        filter: .adaptive, compressionLevel: .zlibDefault, compressor: .zlib, palette: .whenExact,
        paletteFilter: .adaptive)

    /// An animation of `viewport` over the windows of `plan`.
    package init(plan: FramePlan, viewport: Viewport, colorMap: ColorMap?) {
        self.plan = plan
        self.viewport = viewport
        self.colorMap = colorMap
    }

    /// The one M every frame is divided by: `scale`'s value, or the largest of the frames' own
    /// M(z) at the viewport's zoom (1 when no frame holds weight: every frame is then empty).
    ///
    /// - Complexity: one M(z) search a frame for ``AnimationScale/maximumOfFrames``.
    package func maximumIntensity(
        _ scale: AnimationScale, frames: some AnimationFrames, progress: (Stage, Int) -> Void = { _, _ in }
    ) throws -> Double {
        if case .fixed(let value) = scale { return value }
        var maximum = 0.0
        for (number, window) in plan.enumerated() {
            let value = try frames.normalization(of: window, zoom: viewport.zoom, scale: viewport.scale)
            if value.isFinite { maximum = max(maximum, value) }
            progress(.scale, number + 1)
        }
        return maximum > 0 ? maximum : 1
    }

    /// One frame: the image of `window` divided by `maximumIntensity`, labelled with the window.
    ///
    /// - Throws: ``HeatmapAnimationError`` when a tile is not available yet; what `frames` throws.
    package func frame(_ window: FramePlan.Window, frames: some AnimationFrames, maximumIntensity: Double) throws
        -> RGBAImage
    {
        guard var image = try frames.image(of: window, viewport: viewport, maximumIntensity: maximumIntensity)
        else { throw HeatmapAnimationError("a tile of the frame \(window.label) is not available yet; ask again") }
        image.drawLabel(
            window.label, corner: corner, scale: viewport.scale, color: Self.labelColors[0], halo: Self.labelColors[1])
        return image
    }

    /// Draws every frame and hands the APNG's bytes to `write` as they come (the file's head
    /// with the first frame, a frame at a time, then its end): memory holds one frame.
    ///
    /// - Parameters:
    ///   - progress: called after each frame's M(z) (``Stage/scale``, for
    ///     ``AnimationScale/maximumOfFrames``) and after each frame written (``Stage/frame``),
    ///     with the number done in that stage.
    /// - Throws: what `frames` or `write` throws, ``PNGError`` from the encoder.
    /// - Complexity: one M(z) search a frame (for ``AnimationScale/maximumOfFrames``), then one
    ///   image a frame.
    package func write(
        frames: some AnimationFrames, scale: AnimationScale, progress: (Stage, Int) -> Void = { _, _ in },
        to write: ([UInt8]) throws -> Void
    ) throws {
        let maximum = try maximumIntensity(scale, frames: frames, progress: progress)
        var colors = APNGEncoder.Colors.rgba
        if let colorMap { colors = .heatmap(colorMap, adding: Self.labelColors) }
        var encoder = try APNGEncoder(
            width: viewport.pixelWidth, height: viewport.pixelHeight, frameCount: plan.count, delay: delay,
            colors: colors, png: Self.encoder)
        for (number, window) in plan.enumerated() {
            try write(try encoder.encode(try frame(window, frames: frames, maximumIntensity: maximum)))
            progress(.frame, number + 1)
        }
        try write(try encoder.finish())
    }

    /// The whole APNG in memory (for the server, whose animations are bounded by
    /// ``maximumPixels``).
    package func encode(frames: some AnimationFrames, scale: AnimationScale) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try write(frames: frames, scale: scale) { bytes += $0 }
        return bytes
    }

    /// The most pixels, over all frames, a server animation draws: 400 frames of 512 × 512.
    package static let maximumPixels = 400 * 512 * 512

    /// The pixels of all frames.
    package var pixelCount: Int { plan.count * viewport.pixelWidth * viewport.pixelHeight }
}

/// An animation that cannot be drawn, with a message naming what to change.
package struct HeatmapAnimationError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What went wrong.
    package var description: String

    /// An error saying `description`.
    package init(_ description: String) {
        self.description = description
    }
}

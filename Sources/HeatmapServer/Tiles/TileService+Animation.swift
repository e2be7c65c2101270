import HeatmapCore
import HeatmapKit

extension TileService {
    /// Whether a static image request asks for an animation (`step=` or `window=` in its query).
    static func asksForAnimation(_ request: HTTPRequest) -> Bool {
        request.queryItems.contains { $0.name == "step" || $0.name == "window" }
    }

    /// `/static/{layer}/{lon},{lat},{zoom}/{width}x{height}[@2x].png?datetime=A/B&step=1d[&window=7d]`:
    /// the APNG `heatmap image … --datetime A/B --step 1d --window 7d` writes, the same bytes for
    /// the same settings (``HeatmapAnimation/prepare(_:step:window:viewport:source:whole:settings:base:)``
    /// sets both up), drawn on the render pool. The query's other parameters are the layer's
    /// settings and filters, as for its tiles.
    ///
    /// 400 naming the value for a step or window that does not parse, a reversed interval,
    /// more than 10,000 frames or more pixels than ``HeatmapAnimation/maximumPixels`` in all, a
    /// category the data lack, or a layer that is not a heatmap with times. 204 for an open
    /// end that the filters keep no point to close on (a filter selecting nothing, as a tile's);
    /// 503 when the database fails. Checked on the render pool, like the drawing.
    func staticAnimation(_ request: HTTPRequest, name: String, viewport: Viewport, route: Route) -> HTTPReply {
        // Off the I/O loop: closing an open end on a category's points reads the index or the table.
        .deferred { [self] completion in
            renderPool.async { [self] in
                let prepared: HeatmapAnimation.Prepared
                do throws(LookupFailure) {
                    prepared = try prepareAnimation(request, name: name, viewport: viewport)
                } catch  where error.status == .noContent {
                    // An open end that the filters keep no point to close on: nothing, as for a tile.
                    return completion(decorate(HTTPResponse(status: .noContent), route: route))
                } catch  where error.status == .serviceUnavailable {
                    return completion(
                        decorate(failureResponse(RenderFailure(status: 503, message: error.message)), route: route))
                } catch {
                    return completion(decorate(.text(error.status, error.message), route: route))
                }
                completion(
                    decorate(encode(prepared, name: name, request: request, scale: viewport.scale), route: route))
            }
        }
    }

    /// The animation a request asks for, checked.
    ///
    /// - Throws: ``LookupFailure`` (400, or 404 for no such layer) naming what is wrong.
    private func prepareAnimation(_ request: HTTPRequest, name: String, viewport: Viewport) throws(LookupFailure)
        -> HeatmapAnimation.Prepared
    {
        let found: LayerRegistry.Entry
        switch registry.entry(named: name) {
        case .success(let entry): found = entry
        case .failure(let failure): throw failure
        }
        guard let served = found.layer as? ServedLayer else {
            throw LookupFailure(
                status: .badRequest, message: "\(name) is not a heatmap layer: an animation is of one layer's points")
        }
        let items = request.queryItems
        func length(_ name: String) throws(LookupFailure) -> TimeStep? {
            guard let text = items.last(where: { $0.name == name })?.value else { return nil }
            do {
                return try TimeStep(parsing: text, name: name)
            } catch {
                throw LookupFailure(status: .badRequest, message: error.message)
            }
        }
        guard let step = try length("step") else {
            throw LookupFailure(status: .badRequest, message: "window= needs step=: the time from frame to frame")
        }
        let window = try length("window") ?? step
        do {
            let settings = try SettingOverrides(query: items.filter { $0.name != "step" && $0.name != "window" })
            let given = served.filterDefaults.merging(settings)
            let filter = given.filter ?? LayerFilterRequest()
            let drawing = settings.applied(to: served.settings)
            let (views, _) = try served.resolve(filter, drawing: drawing)
            let prepared = try HeatmapAnimation.prepare(
                filter, step: step, window: window, viewport: viewport, source: views.source, whole: served.heatmap,
                settings: drawing, base: nil)
            let pixels = prepared.animation.pixelCount
            guard pixels <= HeatmapAnimation.maximumPixels else {
                throw LookupFailure(
                    status: .badRequest,
                    message:
                        "\(prepared.animation.plan.count) frames of \(viewport.pixelWidth)x\(viewport.pixelHeight) "
                        + "pixels are \(pixels) pixels, over the server's \(HeatmapAnimation.maximumPixels) "
                        + "(400 frames of 512x512): use a longer step, a shorter interval or a smaller image")
            }
            return prepared
        } catch let error as LookupFailure {
            throw error
        } catch let error as FramePlanError where error.kind == .keepsNothing {
            throw LookupFailure(status: .noContent, message: error.message)
        } catch let error as FramePlanError {
            throw LookupFailure(status: .badRequest, message: "datetime, step=\(step): \(error.message)")
        } catch {
            // The database failing (closing an open end reads it): a 503 to retry, as for a tile.
            if let failure = sourceFailure(error, layer: name) {
                throw LookupFailure(
                    status: failure.status == 503 ? .serviceUnavailable : .internalServerError, message: failure.message
                )
            }
            throw LookupFailure(status: .badRequest, message: "\(error)")
        }
    }

    /// The APNG's bytes, or why they could not be drawn.
    private func encode(_ prepared: HeatmapAnimation.Prepared, name: String, request: HTTPRequest, scale: Int)
        -> HTTPResponse
    {
        do {
            let bytes = try prepared.animation.encode(frames: prepared.frames, scale: prepared.scale)
            return tileResponse(RenderedTile(.image(bytes)), request: request, scale: scale)
        } catch {
            metrics.renderFailed()
            if let failure = sourceFailure(error, layer: name) { return failureResponse(failure) }
            return .text(.internalServerError, "\(error)")
        }
    }
}

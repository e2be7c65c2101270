import HeatmapKit
import Synchronization

/// A heatmap the server serves, as a ``TileLayer`` like any other: its source file, its
/// settings and the current data (swapped atomically on reload, changed by live points), with
/// its tiles in the server's cache and their invalidation (see ServedLayer+Invalidation.swift),
/// the same on its own route and inside any stack.
package final class ServedLayer: Sendable {
    /// The name in URLs: letters, digits, `-`, `_` and `.` only.
    package let name: String
    /// Where the data come from (for reloads); empty for data given directly.
    package let source: String
    /// The layer's own settings; query parameters override them per request.
    package let settings: HeatmapSettings
    /// Draws tiles for every settings (the server caches the results, so the layer does not).
    package let heatmap: HeatmapTileLayer
    let state: Mutex<(generation: Int, data: LayerData)>
    /// The server caches holding its tiles, where every change of its data drops those it reaches.
    let caches = LayerCaches()
    /// What the server's cache keys hold: advanced by reloads only, as live changes drop just
    /// the tiles they reach (see ServedLayer+Invalidation.swift).
    let epochs = Atomic<Int>(0)
    /// Advanced with the generation: the event loops' kept tile answers stand while it holds
    /// (see TileService+Reuse.swift).
    let answers = ResponseVersion()
    /// The data's views by filter, `nil` for data without times or categories (see
    /// ServedLayer+Filters.swift); swapped with the data.
    let views: Mutex<FilteredLayers?>
    /// The filters the layer is drawn with unless a request gives its own (`serve --datetime`,
    /// a configuration's `"category"`): a request's filters replace these, setting by setting.
    package let filterDefaults: SettingOverrides

    /// Creates a layer.
    ///
    /// - Throws: ``OverrideError`` for a name unfit for URLs or invalid settings.
    package init(
        name: String, source: String = "", settings: HeatmapSettings = .default, filters: SettingOverrides = .init(),
        data: LayerData
    ) throws(OverrideError) {
        guard Self.isValidName(name) else {
            throw OverrideError(
                "layer name \"\(name)\" must be 1-64 letters, digits, '-', '_' or '.', not starting with '.'")
        }
        do {
            try settings.validate()
        } catch {
            throw OverrideError("layer \(name): \(error.description)")
        }
        self.name = name
        self.source = source
        self.settings = settings
        filterDefaults = filters.filters
        if let source = data.source, let mean = data.sourceValues {
            heatmap = HeatmapTileLayer(
                source: source, shiftedValues: mean.shiftedValues, values: mean.values, settings: settings,
                cacheBytes: 0)
        } else if let source = data.source {
            heatmap = HeatmapTileLayer(source: source, settings: settings, cacheBytes: 0)
        } else if let values = data.values {
            heatmap = HeatmapTileLayer(values: values, settings: settings, cacheBytes: 0)
        } else {
            heatmap = HeatmapTileLayer(index: data.index, settings: settings, cacheBytes: 0)
        }
        state = Mutex((0, data))
        views = Mutex(data.filters.map { FilteredLayers(source: $0, settings: settings) })
    }

    /// Whether a name is usable in URLs as is.
    package static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64 && !name.hasPrefix(".")
            && name.utf8.allSatisfy {
                $0.isASCIILetter || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
            }
    }

    /// The data now and their generation (which changes on every reload).
    package var current: (generation: Int, data: LayerData) { state.withLock { $0 } }

    /// Swaps in new data: requests under way finish on the old, later ones see the new.
    package func replace(with data: LayerData) {
        state.withLock { state in
            if let source = data.source, let mean = data.sourceValues {
                heatmap.replaceSource(with: source, shiftedValues: mean.shiftedValues, values: mean.values)
            } else if let source = data.source {
                heatmap.replaceSource(with: source)
            } else if let values = data.values {
                heatmap.replaceData(withValues: values)
            } else {
                heatmap.replaceData(with: data.index)
            }
            state = (state.generation + 1, data)
            views.withLock { $0 = data.filters.map { FilteredLayers(source: $0, settings: settings) } }
            epochs.add(1, ordering: .relaxed)
            answers.advance()
        }
    }
}

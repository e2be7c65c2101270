extension TileStack: SettingsTakingLayer, OccupancyLayer {
    /// Whether one of its layers takes settings.
    package var takesSettings: Bool {
        layers.contains { ($0 as? any SettingsTakingLayer)?.takesSettings ?? false }
    }

    /// The stack of its layers each drawn with `overrides` where it takes them (the others as
    /// they are), with the stack's name, zIndex and opacity; uncached, as the server caches it.
    package func taking(_ overrides: SettingOverrides) -> any TileLayer {
        TileStack(
            layers.map { ($0 as? any SettingsTakingLayer)?.taking(overrides) ?? $0 }, name: name, zIndex: zIndex,
            opacity: opacity, cacheBytes: 0)
    }

    /// The union of its layers' tiles, or `nil` when one of them cannot say.
    package func occupancy(zooms: ClosedRange<Int>, scale: Int) throws(HeatmapError) -> TileOccupancy? {
        var parts: [TileOccupancy] = []
        for layer in layers {
            guard let part = try (layer as? any OccupancyLayer)?.occupancy(zooms: zooms, scale: scale) else {
                return nil
            }
            parts.append(part)
        }
        return .union(parts)
    }
}

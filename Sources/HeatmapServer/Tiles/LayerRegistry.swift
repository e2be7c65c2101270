import HeatmapKit

/// The server's layers, in one registry: every one a ``TileLayer`` under a name fit for URLs
/// (heatmaps, pre-rendered archives, URL layers, your own), the named stacks of them, and the
/// ad-hoc stacks `a+b+…` that a URL names. What a route does with a layer depends on its
/// capabilities (see LayerCapabilities.swift), never on its kind.
package final class LayerRegistry: Sendable {
    /// A layer with the live layers drawn into it (itself, for a heatmap; a stack's heatmaps).
    package struct Entry: Sendable {
        package let layer: any TileLayer
        /// The live layers drawn into it, each once.
        let live: [any LiveTileLayer]
        /// The layer itself when it is live (a heatmap), found once.
        let itself: (any LiveTileLayer)?

        init(layer: any TileLayer, live: [any LiveTileLayer]) {
            self.layer = layer
            self.live = live
            itself = layer as? any LiveTileLayer
        }

        /// What its tiles' cache keys hold (see ``LayerRegistry/stamp(of:)``).
        var stamp: Int { itself?.epoch ?? LayerRegistry.stamp(of: layer) }
    }

    /// The most layers in an ad-hoc stack `/{a}+{b}+…/`.
    static let maximumStackMembers = 16

    /// The layers and stacks in the order given.
    package let layers: [any TileLayer]
    let byName: [String: Entry]

    /// Registers `layers` and then the `stacks` of them (bottom first; a stack may hold stacks
    /// defined before it).
    ///
    /// - Throws: ``OverrideError`` when two share a name, a name is unfit for URLs, or a stack
    ///   has no layer or names one that does not exist.
    package init(layers given: [any TileLayer], stacks: [StackDefinition]) throws(OverrideError) {
        var layers: [any TileLayer] = []
        var byName: [String: Entry] = [:]
        func add(_ layer: any TileLayer) throws(OverrideError) {
            guard byName[layer.name] == nil else { throw OverrideError("two layers are named \(layer.name)") }
            guard ServedLayer.isValidName(layer.name) else {
                throw OverrideError(
                    "layer name \"\(layer.name)\" must be 1-64 letters, digits, '-', '_' or '.', not starting with '.'")
            }
            layers.append(layer)
            byName[layer.name] = Entry(layer: layer, live: Self.liveLayers(of: layer))
        }
        for layer in given { try add(layer) }
        for stack in stacks {
            guard ServedLayer.isValidName(stack.name), !stack.layers.isEmpty else {
                throw OverrideError("stack \"\(stack.name)\" needs a name fit for URLs and at least one layer")
            }
            var members: [any TileLayer] = []
            for member in stack.layers {
                guard let entry = byName[member] else { throw OverrideError("stack \(stack.name): no layer \(member)") }
                members.append(entry.layer)
            }
            try add(TileStack(members, name: stack.name, cacheBytes: 0))
        }
        self.layers = layers
        self.byName = byName
    }

    /// The layer behind a name: one registered, or `a+b+…`, an ad-hoc stack of those (b over a).
    package func entry(named name: String) -> Result<Entry, TileService.LookupFailure> {
        if let entry = byName[name] { return .success(entry) }
        let parts = name.split(separator: "+", omittingEmptySubsequences: false)
        guard parts.count > 1 else {
            return .failure(TileService.LookupFailure(status: .notFound, message: "no layer \(name)"))
        }
        guard parts.count <= Self.maximumStackMembers else {
            return .failure(
                TileService.LookupFailure(
                    status: .badRequest, message: "a stack has at most \(Self.maximumStackMembers) layers"))
        }
        var members: [any TileLayer] = []
        for part in parts {
            guard let entry = byName[String(part)] else {
                return .failure(TileService.LookupFailure(status: .notFound, message: "no layer \(part)"))
            }
            members.append(entry.layer)
        }
        let stack = TileStack(members, name: name, cacheBytes: 0)
        return .success(Entry(layer: stack, live: Self.liveLayers(of: stack)))
    }

    /// Whether tiles cached under `name` (a stack's, registered or ad hoc) are drawn from `layer`.
    func draws(_ name: String, from layer: any LiveTileLayer) -> Bool {
        guard case .success(let entry) = entry(named: name) else { return false }
        return entry.live.contains { $0 === layer }
    }

    /// The live layers drawn into `layer`, each once, bottom first.
    static func liveLayers(of layer: any TileLayer) -> [any LiveTileLayer] {
        if let live = layer as? any LiveTileLayer { return [live] }
        guard let composite = layer as? any CompositeLayer else { return [] }
        var found: [any LiveTileLayer] = []
        for member in composite.layers {
            for live in liveLayers(of: member) where !found.contains(where: { $0 === live }) { found.append(live) }
        }
        return found
    }

    /// What the cache keys of `layer`'s tiles hold: a live layer's epoch (its reloads: live
    /// changes drop only the tiles they reach), a stack's layers' together, and any other
    /// layer's ``TileLayer/cacheGeneration``.
    static func stamp(of layer: any TileLayer) -> Int {
        if let live = layer as? any LiveTileLayer { return live.epoch }
        if let composite = layer as? any CompositeLayer {
            return composite.layers.reduce(0) { $0 &* 31 &+ stamp(of: $1) }
        }
        return layer.cacheGeneration
    }

    /// Whether `layer` takes settings given per request (a stack: one of its layers does).
    static func takesSettings(_ layer: any TileLayer) -> Bool {
        (layer as? any SettingsTakingLayer)?.takesSettings ?? false
    }
}

extension LayerRegistry {
    /// A registered layer or named stack (not an ad-hoc one), or `nil`.
    func registered(_ name: String) -> (any TileLayer)? { byName[name]?.layer }
}

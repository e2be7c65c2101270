import Synchronization

/// Layers drawn over one another as one layer, in ``TileLayer/zIndex`` order (higher over
/// lower; equal values keep the order given, the first at the bottom), with each layer's
/// opacity applied: straight alpha, Porter-Duff "over" in double precision (the
/// compositing of docs/guides/layers-and-stacks.md gives the exact rule).
///
/// - A tile is ``TileResult/notAvailableYet`` when any layer says so (a partial composite would
///   never be asked for again), ``TileResult/noTile`` when every layer says so, otherwise the
///   composite as PNG.
/// - Its images are as large as its largest layer's at the request's scale; smaller layers are
///   scaled up by nearest neighbour (a 256 px base under a 512 px heatmap doubles every pixel).
///   A layer whose image is not its `imageSize(scale:)` is an error naming it.
/// - Composites are cached (least recently used out). Each entry belongs to the layers'
///   ``TileLayer/cacheGeneration``, opacity and zIndex at the time: clearing a layer's cache,
///   changing its data, opacity or order drops the stack's tiles too, and nothing else.
///
/// ```swift
/// let map = TileStack([base, heatmap])  // heatmap over base
/// let tile = try map.tileFor(TileRequest(x: 924, y: 628, zoom: 10, scale: 2))
/// ```
public final class TileStack: CompositeLayer {
    /// The layers, in the order given (drawn in ``TileLayer/zIndex`` order).
    public let layers: [any TileLayer]
    /// The stack's name: given, or its layers' names joined by "+".
    public let name: String
    private let appearance: Mutex<LayerAppearance>
    private let generation = GenerationCounter()
    private let cache: TileCache<Key, TileResult>
    private let signature = Mutex<[Member]?>(nil)

    private struct Key: Hashable, Sendable {
        var request: TileRequest
        var side: Int
    }

    /// What a member looked like when a composite was drawn.
    private struct Member: Hashable, Sendable {
        var generation: Int
        var opacity: Double
        var zIndex: Int
    }

    /// A stack of `layers` (bottom first among equal zIndex).
    ///
    /// - Parameters:
    ///   - layers: the layers, drawn from the lowest ``TileLayer/zIndex`` up.
    ///   - name: the stack's name in errors (default: its members' names joined by `+`).
    ///   - zIndex: the stack's place in a stack of stacks (default 0).
    ///   - opacity: applied to the composite, 0...1 (default 1).
    ///   - cacheBytes: the most memory cached composites may use; default 64 MiB, 0 for none.
    public init(
        _ layers: [any TileLayer], name: String? = nil, zIndex: Int = 0, opacity: Double = 1,
        cacheBytes: Int = 64 << 20
    ) {
        self.layers = layers
        self.name = name ?? layers.map(\.name).joined(separator: "+")
        appearance = Mutex(LayerAppearance(zIndex: zIndex, opacity: opacity))
        cache = TileCache(capacityBytes: cacheBytes)
    }

    /// The stack's place in a stack of stacks; may be changed at any time.
    public var zIndex: Int {
        get { appearance.withLock { $0.zIndex } }
        set { appearance.withLock { $0.zIndex = newValue } }
    }

    /// How opaque the stack is drawn inside another stack, 0...1; its own images are not changed.
    public var opacity: Double {
        get { appearance.withLock { $0.opacity } }
        set { appearance.withLock { $0.opacity = newValue } }
    }

    /// The largest of the layers' tile sizes (256 without layers).
    public var tileSize: Int { layers.map(\.tileSize).max() ?? 256 }

    /// The largest of the layers' image sizes at `scale`.
    public func imageSize(scale: Int) -> Int { layers.map { $0.imageSize(scale: scale) }.max() ?? 256 * scale }

    /// Changes whenever the stack's cache is cleared or any layer's generation changes.
    public var cacheGeneration: Int { layers.reduce(generation.current) { $0 &+ $1.cacheGeneration } }

    /// Drops the stack's composites (not its layers' tiles).
    public func clearTileCache() {
        generation.advance()
        signature.withLock { $0 = nil }
        cache.removeAll()
    }

    /// The composite, asking each layer on the caller's thread.
    public func tileFor(_ request: TileRequest) throws -> TileResult {
        try request.validate()
        let side = try side(scale: request.scale)
        let members = try current()
        if let cached = cache[Key(request: request, side: side)] { return cached }
        var answers: [TileResult] = []
        for layer in layers { answers.append(try Self.ask(layer) { try layer.tileFor(request) }) }
        return try finish(request, side: side, members: members, answers: answers)
    }

    /// The composite, asking every layer at once.
    public func tile(_ request: TileRequest) async throws -> TileResult {
        try request.validate()
        let side = try side(scale: request.scale)
        let members = try current()
        if let cached = cache[Key(request: request, side: side)] { return cached }
        let answers = try await withThrowingTaskGroup(of: (Int, TileResult).self) { group in
            for (index, layer) in layers.enumerated() {
                group.addTask { (index, try await Self.ask(layer) { try await layer.tile(request) }) }
            }
            var answers = [TileResult](repeating: .noTile, count: layers.count)
            for try await (index, answer) in group { answers[index] = answer }
            return answers
        }
        return try finish(request, side: side, members: members, answers: answers)
    }

    /// The side of the stack's images at `scale`, checked to be one a tile can have.
    private func side(scale: Int) throws(TileLayerError) -> Int {
        let side = imageSize(scale: scale)
        guard (1...TileCompositor.maximumSide).contains(side) else {
            throw .invalidLayer(
                "stack \(name): a tile side of \(side) pixels is outside 1...\(TileCompositor.maximumSide)")
        }
        return side
    }

    /// Each layer's generation, opacity and zIndex now, opacities checked; the cache is emptied
    /// when they differ from the last ones seen.
    private func current() throws(TileLayerError) -> [Member] {
        var members: [Member] = []
        for layer in layers {
            let opacity = layer.opacity
            guard opacity.isFinite, (0...1).contains(opacity) else {
                throw .invalidOpacity(layer: layer.name, opacity: opacity)
            }
            members.append(Member(generation: layer.cacheGeneration, opacity: opacity, zIndex: layer.zIndex))
        }
        let changed = signature.withLock { seen in
            defer { seen = members }
            return seen != members
        }
        if changed { cache.removeAll() }
        return members
    }

    /// A layer's answer, its errors named after it (a ``TileLayerError`` names its layer already).
    private static func ask(_ layer: any TileLayer, _ body: () throws -> TileResult) throws(TileLayerError)
        -> TileResult
    {
        do {
            return try body()
        } catch let error as TileLayerError {
            throw error  // names the layer already
        } catch let error as HeatmapError where error.isSourceFailure {
            throw .sourceFailed(layer: layer.name, error: error)
        } catch {
            throw .layerFailed(layer: layer.name, reason: "\(error)")
        }
    }

    private static func ask(_ layer: any TileLayer, _ body: () async throws -> TileResult) async throws(TileLayerError)
        -> TileResult
    {
        do {
            return try await body()
        } catch let error as TileLayerError {
            throw error  // names the layer already
        } catch let error as HeatmapError where error.isSourceFailure {
            throw .sourceFailed(layer: layer.name, error: error)
        } catch {
            throw .layerFailed(layer: layer.name, reason: "\(error)")
        }
    }

    /// The stack's answer from its layers' answers (in the order of ``layers``), cached while
    /// the layers are as `members` says.
    private func finish(_ request: TileRequest, side: Int, members: [Member], answers: [TileResult])
        throws(TileLayerError) -> TileResult
    {
        let result = try composite(request, side: side, members: members, answers: answers)
        signature.withLock { seen in
            if seen == members { cache.insert(result, for: Key(request: request, side: side)) }
        }
        return result
    }

    /// The composite of the layers' answers, drawn with their opacities and zIndex in `members`.
    private func composite(_ request: TileRequest, side: Int, members: [Member], answers: [TileResult])
        throws(TileLayerError) -> TileResult
    {
        if answers.contains(.notAvailableYet) { return .notAvailableYet }
        let order = layers.indices.sorted { (members[$0].zIndex, $0) < (members[$1].zIndex, $1) }
        var inputs: [TileCompositor.Layer] = []
        for index in order {
            guard case .image(let png) = answers[index] else { continue }
            let layer = layers[index]
            let image = try TileCompositor.decode(
                png, layer: layer.name, expected: layer.imageSize(scale: request.scale))
            let opacity = layer.imagesIncludeOpacity ? 1 : members[index].opacity
            inputs.append(TileCompositor.Layer(image: TileCompositor.resized(image, to: side), opacity: opacity))
        }
        guard !inputs.isEmpty else { return .noTile }
        do {
            return .image(try PNGEncoder().encode(TileCompositor.composite(inputs, side: side)))
        } catch {
            throw .layerFailed(layer: name, reason: "cannot encode the composite: \(error)")
        }
    }

    /// The composite of answers to `request` given by ``layers`` (in their order), as
    /// ``tileFor(_:)`` draws it but not cached: for callers that ask the layers themselves.
    ///
    /// - Throws: ``TileLayerError`` for a request off the grid, an opacity out of range or an
    ///   image not of its layer's size.
    package func composite(_ request: TileRequest, answers: [TileResult]) throws(TileLayerError) -> TileResult {
        try request.validate()
        guard answers.count == layers.count else {
            throw .layerFailed(layer: name, reason: "\(answers.count) answers for \(layers.count) layers")
        }
        var members: [Member] = []
        for layer in layers {
            let opacity = layer.opacity
            guard opacity.isFinite, (0...1).contains(opacity) else {
                throw .invalidOpacity(layer: layer.name, opacity: opacity)
            }
            members.append(Member(generation: 0, opacity: opacity, zIndex: layer.zIndex))
        }
        return try composite(request, side: try side(scale: request.scale), members: members, answers: answers)
    }

    /// A layer's answer, its errors named after it, as a stack asks its layers.
    package static func asking(_ layer: any TileLayer, _ request: TileRequest) async throws(TileLayerError)
        -> TileResult
    {
        try await ask(layer) { try await layer.tile(request) }
    }
}

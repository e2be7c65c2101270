import HeatmapKit

/// The generations of a layer's live layers, read before a cache lookup (most layers have one
/// or none, so no array is made for them).
struct Generations {
    private let live: [any LiveTileLayer]
    private let first: Int
    private let rest: [Int]

    init(_ live: [any LiveTileLayer]) {
        self.live = live
        first = live.first?.generation ?? 0
        rest = live.count > 1 ? live.dropFirst().map(\.generation) : []
    }

    /// The generation read of `layer`, or its generation now if it was not among them.
    func of(_ layer: any LiveTileLayer) -> Int {
        if let head = live.first, head === layer { return first }
        for (i, other) in live.dropFirst().enumerated() where other === layer { return rest[i] }
        return layer.generation
    }

    /// One number for all of them and `stamp`, to share renders per state.
    func combined(with stamp: Int) -> Int {
        rest.reduce(stamp &* 1_000_003 &+ first) { $0 &* 1_000_003 &+ $1 }
    }
}

extension TileService {
    /// Whether a cached tile may answer for `key` now: each live layer it was drawn from is at
    /// the generation read, or its M(z) is the one the tile used (see
    /// ``LiveTileLayer/stands(_:zoom:scale:at:waiting:)``; then the tile is cached again
    /// stamped with the generations, to be checked once).
    func stands(_ tile: RenderedTile, key: TileKey, generations: Generations, waiting: Bool) -> Bool {
        switch tile.dependencies {
        case .none: return true
        case .one(var dependency):
            // Most tiles: one live layer, checked without making a list.
            let generation = generations.of(dependency.layer)
            if dependency.drawnAt == generation { return true }
            guard
                dependency.layer.stands(dependency, zoom: key.zoom, scale: key.scale, at: generation, waiting: waiting)
            else { return false }
            dependency.drawnAt = generation
            var stamped = tile
            stamped.dependencies = .one(dependency)
            // M(z) was read from the data of that generation only if no change came meanwhile.
            return insert(stamped, for: key)
        case .many(var dependencies):
            var current = true
            for (i, dependency) in dependencies.enumerated() {
                let generation = generations.of(dependency.layer)
                guard dependency.drawnAt != generation else { continue }
                current = false
                guard
                    dependency.layer.stands(
                        dependency, zoom: key.zoom, scale: key.scale, at: generation, waiting: waiting)
                else { return false }
                dependencies[i].drawnAt = generation
            }
            if current { return true }
            var stamped = tile
            stamped.dependencies = .many(dependencies)
            return insert(stamped, for: key)
        }
    }

    /// Caches a tile unless the data it was drawn from changed since: checked under the locks
    /// that changes of its live layers hold while they drop the tiles they reach (taken in one
    /// order); a tile of no live layer while the layer's stamp is the key's. Returns whether
    /// it was current.
    @discardableResult
    func insert(_ tile: RenderedTile, for key: TileKey, stamp: Int? = nil) -> Bool {
        let dependencies: [TileDependency]
        switch tile.dependencies {
        case .none:
            guard stamp == nil || stamp == key.generation else { return false }
            cache.insert(tile, for: key)
            return true
        case .one(let dependency):
            return dependency.layer.holdingChanges { now in
                guard now == dependency.drawnAt else { return false }
                cache.insert(tile, for: key)
                return true
            }
        case .many(let list): dependencies = list
        }
        var layers: [(layer: any LiveTileLayer, generation: Int)] = []
        for dependency in dependencies {
            if let held = layers.first(where: { $0.layer === dependency.layer }) {
                // A layer drawn twice into a stack at two generations: not current.
                guard held.generation == dependency.drawnAt else { return false }
                continue
            }
            layers.append((dependency.layer, dependency.drawnAt))
        }
        layers.sort { ObjectIdentifier($0.layer) < ObjectIdentifier($1.layer) }
        func holding(_ index: Int) -> Bool {
            guard index < layers.count else {
                cache.insert(tile, for: key)
                return true
            }
            return layers[index].layer.holdingChanges { now in
                now == layers[index].generation && holding(index + 1)
            }
        }
        return holding(0)
    }

    /// Draws a live layer's tile (or takes it from the cache, if a render finished since the lookup).
    func render(_ live: any LiveTileLayer, entry: LayerRegistry.Entry, key: TileKey) -> Result<
        RenderedTile, RenderFailure
    > {
        // The generations first: a tile cached or drawn after them is at least as new.
        let generations = Generations(entry.live)
        if let cached = cache[key], stands(cached, key: key, generations: generations, waiting: true) {
            return .success(cached)
        }
        let start = Self.seconds()
        let startCPU = Self.threadCPUSeconds()
        let tile: RenderedTile
        do {
            tile = try live.drawn(key.request, settings: key.settings)
        } catch {
            metrics.renderFailed()
            switch error {
            case .tileOutOfRange, .invalidMean, .invalidGroundRadius:
                return .failure(RenderFailure(status: 400, message: error.description))
            default: break
            }
            // The data's source (a database) is down or too slow: try again later. The client
            // gets a plain sentence; the detail (host, user, SQL) goes to the log, once an episode.
            if let failure = sourceFailure(error, layer: key.layer) {
                if case .sourceTimedOut = error {
                    metrics.sourceFailed(timeout: true)
                } else {
                    metrics.sourceFailed(timeout: false)
                }
                return .failure(failure)
            }
            return .failure(RenderFailure(status: 500, message: error.description))
        }
        sourceAnswered(key.layer)
        metrics.rendered(seconds: Self.seconds() - start, cpuSeconds: Self.threadCPUSeconds() - startCPU)
        insert(tile, for: key)
        return .success(tile)
    }

    /// Asks any other layer (a stack, an archive, a URL layer) for a tile (or takes it from the
    /// cache, if an answer came since the lookup); images and "no tile" are cached.
    func render(_ entry: LayerRegistry.Entry, key: TileKey) async -> Result<RenderedTile, RenderFailure> {
        let generations = Generations(entry.live)
        if let cached = cache[key], stands(cached, key: key, generations: generations, waiting: true) {
            return .success(cached)
        }
        let start = Self.seconds()
        let drawn: (result: TileResult, dependencies: [TileDependency])
        do {
            drawn = try await draw(entry.layer, key.request, settings: key.settings, member: false)
        } catch {
            metrics.renderFailed()
            if case .invalidRequest(let reason) = error as? TileLayerError {
                return .failure(RenderFailure(status: 400, message: reason))
            }
            if let failure = sourceFailure(error, layer: key.layer) { return .failure(failure) }
            return .failure(RenderFailure(status: 500, message: "\(error)"))
        }
        guard drawn.result != .notAvailableYet else {
            return .failure(
                RenderFailure(
                    status: 503,
                    message: "layer \(key.layer): tile \(key.zoom)/\(key.x)/\(key.y) is not available yet; ask again"))
        }
        let tile = RenderedTile(drawn.result, dependencies: TileDependencies(drawn.dependencies))
        sourceAnswered(key.layer)
        metrics.rendered(seconds: Self.seconds() - start)
        insert(tile, for: key, stamp: entry.stamp)
        return .success(tile)
    }

    /// A layer's answer to `request` with the live layers it was drawn from: a live layer
    /// draws with `settings` on the threads its workload names; a stack asks its layers at once,
    /// each with the settings, and composites their answers; any other layer is asked as it is.
    /// A member's errors name it, as a stack's do.
    func draw(_ layer: any TileLayer, _ request: TileRequest, settings: SettingOverrides, member: Bool) async throws
        -> (result: TileResult, dependencies: [TileDependency])
    {
        if let live = layer as? any LiveTileLayer {
            let tile = try await drawnOffLoop(live, request, settings: settings)
            return (tile.result, tile.dependencies.all)
        }
        if let composite = layer as? any CompositeLayer {
            let members = composite.layers
            let answers = try await withThrowingTaskGroup(
                of: (Int, (result: TileResult, dependencies: [TileDependency])).self
            ) { group in
                for (index, layer) in members.enumerated() {
                    group.addTask { [self] in (index, try await draw(layer, request, settings: settings, member: true))
                    }
                }
                var answers = [(result: TileResult, dependencies: [TileDependency])](
                    repeating: (.noTile, []), count: members.count)
                for try await (index, answer) in group { answers[index] = answer }
                return answers
            }
            let result = try composite.composite(request, answers: answers.map(\.result))
            return (result, answers.flatMap(\.dependencies))
        }
        if member { return (try await TileStack.asking(layer, request), []) }
        return (try await layer.tile(request), [])
    }

    /// A live layer's tile drawn on its workload's threads, its errors as a stack's member's.
    private func drawnOffLoop(_ live: any LiveTileLayer, _ request: TileRequest, settings: SettingOverrides)
        async throws -> RenderedTile
    {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<RenderedTile, HeatmapError>, Never>) in
            let work: @Sendable () -> Void = {
                continuation.resume(
                    returning: Result { () throws(HeatmapError) in try live.drawn(request, settings: settings) })
            }
            switch live.workload {
            case .cpu: renderPool.async(work)
            case .io: renderQueue.async(execute: work)
            }
        }
        switch result {
        case .success(let tile): return tile
        case .failure(let error):
            switch error {
            case .invalidMean, .invalidGroundRadius, .invalidFilter, .tileOutOfRange:
                throw TileLayerError.invalidRequest("layer \(live.name): \(error.description)")
            default:
                if error.isSourceFailure { throw TileLayerError.sourceFailed(layer: live.name, error: error) }
                throw TileLayerError.layerFailed(layer: live.name, reason: error.description)
            }
        }
    }
}

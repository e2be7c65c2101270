/// An event loop's own copies of answers its responder let it keep (see ``ReusingResponder``),
/// keyed by request target, with each head written out but for `Date`: a repeated request is
/// answered without the responder, the shared cache's lock or hashing its key, and without
/// formatting a head. Touched only on the loop's thread.
///
/// Bounded by entries and body bytes in two generations: lookups promote into the young one,
/// and when it is full it becomes the old one (the old one dropped), so what is asked for
/// stays and the rest leaves within two rounds. A stale entry (its version moved) is dropped
/// when found.
final class LoopResponseCache {
    struct Entry {
        var response: HTTPResponse
        /// ``HTTPResponse/headBeforeDate(reserving:)`` of `response`.
        var head: [UInt8]
        var stamp: ReuseStamp
    }

    private var young: [String: Entry] = [:]
    private var old: [String: Entry] = [:]
    private var youngBytes = 0
    /// Body bytes and entries a generation may hold.
    let bytesPerGeneration: Int
    let entriesPerGeneration: Int

    /// A cache of at most `capacityBytes` of bodies (0: none) and `entries` answers in all.
    init(capacityBytes: Int, entries: Int = 4096) {
        bytesPerGeneration = max(0, capacityBytes / 2)
        entriesPerGeneration = max(1, entries / 2)
    }

    /// Whether a request may be answered from (and its answer kept in) a loop's cache.
    static func accepts(_ request: HTTPRequest) -> Bool {
        (request.method == "GET" || request.method == "HEAD") && !request.hasBody
            && request.headers.first("If-None-Match") == nil
    }

    /// The current answer for `target`, if kept.
    func lookup(_ target: String) -> Entry? {
        if let entry = young[target] {
            guard entry.stamp.isCurrent else {
                young[target] = nil
                youngBytes -= entry.response.body.count
                return nil
            }
            return entry
        }
        guard let entry = old.removeValue(forKey: target), entry.stamp.isCurrent else { return nil }
        add(entry, for: target)
        return entry
    }

    /// Keeps an answer (not one whose body alone is over a generation's bytes).
    func insert(_ response: HTTPResponse, stamp: ReuseStamp, for target: String) {
        guard response.body.count <= bytesPerGeneration, bytesPerGeneration > 0 else { return }
        if let previous = young.removeValue(forKey: target) { youngBytes -= previous.response.body.count }
        add(Entry(response: response, head: response.headBeforeDate(), stamp: stamp), for: target)
    }

    private func add(_ entry: Entry, for target: String) {
        if young.count >= entriesPerGeneration || youngBytes + entry.response.body.count > bytesPerGeneration {
            old = young
            young = [:]
            young.reserveCapacity(min(entriesPerGeneration, old.count))
            youngBytes = 0
        }
        young[target] = entry
        youngBytes += entry.response.body.count
    }

    /// The answers kept.
    var count: Int { young.count + old.count }
}

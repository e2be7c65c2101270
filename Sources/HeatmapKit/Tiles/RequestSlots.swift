import Dispatch
import Synchronization

/// A bound on the requests in flight per host: at most `limit` at a time, later ones waiting
/// in order until a slot frees or their deadline passes (so no wait is unbounded).
final class RequestSlots: Sendable {
    private struct Waiter {
        var id: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct Host {
        var inUse = 0
        var waiting: [Waiter] = []
    }

    private struct State {
        var hosts: [String: Host] = [:]
        var nextID = 0
    }

    /// The most requests in flight to one host.
    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = max(1, limit) }

    /// Takes a slot for `host`, waiting at most `timeout` seconds; `false` when none came in time
    /// or the task was cancelled (then nothing is held).
    func acquire(_ host: String, timeout: Double) async -> Bool {
        if Task.isCancelled { return false }
        let id = state.withLock { state in
            defer { state.nextID &+= 1 }
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let granted = state.withLock { state -> Bool in
                    var entry = state.hosts[host] ?? Host()
                    defer { state.hosts[host] = entry }
                    if entry.inUse < limit, entry.waiting.isEmpty {
                        entry.inUse += 1
                        return true
                    }
                    entry.waiting.append(Waiter(id: id, continuation: continuation))
                    return false
                }
                if granted {
                    continuation.resume(returning: true)
                } else {
                    let seconds = timeout.isFinite ? min(max(timeout, 0), 86_400) : 10
                    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { self.giveUp(host, id: id) }
                }
            }
        } onCancel: {
            giveUp(host, id: id)
        }
    }

    /// Frees a slot of `host`, handing it to the first waiter if any.
    func release(_ host: String) {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard var entry = state.hosts[host] else { return nil }
            defer { state.hosts[host] = entry.inUse == 0 && entry.waiting.isEmpty ? nil : entry }
            if entry.waiting.isEmpty {
                entry.inUse = max(0, entry.inUse - 1)
                return nil
            }
            return entry.waiting.removeFirst().continuation  // the slot passes on: inUse unchanged
        }
        next?.resume(returning: true)
    }

    /// The requests in flight to `host` now.
    func inFlight(_ host: String) -> Int { state.withLock { $0.hosts[host]?.inUse ?? 0 } }

    /// Stops waiting for a slot: the waiter, if still queued, is answered `false`.
    private func giveUp(_ host: String, id: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard var entry = state.hosts[host], let index = entry.waiting.firstIndex(where: { $0.id == id }) else {
                return nil
            }
            let waiter = entry.waiting.remove(at: index)
            state.hosts[host] = entry
            return waiter.continuation
        }
        waiter?.resume(returning: false)
    }
}

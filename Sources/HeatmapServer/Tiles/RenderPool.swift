import Dispatch
import Foundation
import Synchronization

/// The threads that draw tiles from memory: at most one per core, each taking the oldest job
/// waiting, started when work comes and ended after 10 s without any.
///
/// Renders of in-memory layers are pure CPU work, so they run here rather than on Dispatch's
/// global queue: a job goes straight to a thread of the pool's own, never to more threads than
/// cores, and a thread that finishes a job takes the next without a hand-off.
final class RenderPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var jobs: [Job?] = []
        var head = 0
        var threads = 0
        var idle = 0
        var waiting: Int { jobs.count - head }

        mutating func pop() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            jobs[head] = nil
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1024, head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    /// The most threads the pool runs at once.
    let limit: Int
    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    private static let idleSeconds = 10.0

    /// A pool of at most `threads` threads (at least 1).
    init(threads: Int) {
        limit = max(1, threads)
    }

    /// Runs `job` on a thread of the pool, after the jobs queued before it.
    func async(_ job: @escaping Job) {
        let start = state.withLock { state in
            state.jobs.append(job)
            guard state.threads < limit, state.waiting > state.idle else { return false }
            state.threads += 1
            return true
        }
        ready.signal()
        if start {
            let thread = Thread { [self] in work() }
            thread.name = "heatmap-render"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// A thread's loop: a job per signal, until none came for a while and none is waiting.
    private func work() {
        while true {
            state.withLock { $0.idle += 1 }
            let woken = ready.wait(timeout: .now() + Self.idleSeconds)
            let (job, stop): (Job?, Bool) = state.withLock { state in
                state.idle -= 1
                guard woken == .success else {
                    // A job may be on its way to this signal's waiter: stop only when none waits.
                    guard state.waiting == 0 else { return (nil, false) }
                    state.threads -= 1
                    return (nil, true)
                }
                return (state.pop(), false)
            }
            if stop { return }
            job?()
        }
    }
}

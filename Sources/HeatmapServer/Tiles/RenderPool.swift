import Dispatch
import Foundation
import Synchronization

/// The threads that draw tiles from memory: at most one per core, each taking the oldest job
/// waiting, started when work comes and ended after 10 s without any.
///
/// Renders of in-memory layers are pure CPU work, so they run here rather than on Dispatch's
/// global queue: a job goes straight to a thread of the pool's own, never to more threads than
/// cores, and a thread that finishes a job takes the next without a hand-off. A job that finds
/// threads idle wakes the one that went idle last (last in, first out): its caches, its stack
/// and its allocator's memory are the warmest, and the others stay asleep, so that requests
/// one at a time are all drawn by one thread on one core rather than by each thread in turn.
final class RenderPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var jobs: [Job?] = []
        var head = 0
        var threads = 0
        /// The idle threads' wake-up signals, the one that went idle last at the end.
        var idle: [DispatchSemaphore] = []

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
    private static let idleSeconds = 10.0

    /// A pool of at most `threads` threads (at least 1).
    init(threads: Int) {
        limit = max(1, threads)
    }

    /// The threads waiting for a job.
    var idleThreads: Int { state.withLock { $0.idle.count } }

    /// Runs `job` on a thread of the pool, after the jobs queued before it.
    func async(_ job: @escaping Job) {
        let (wake, start): (DispatchSemaphore?, Bool) = state.withLock { state in
            state.jobs.append(job)
            if let last = state.idle.popLast() { return (last, false) }
            guard state.threads < limit else { return (nil, false) }
            state.threads += 1
            return (nil, true)
        }
        wake?.signal()
        if start {
            let thread = Thread { [self] in
                // Named from the thread itself: on Linux only that reaches the kernel's name
                // (`/proc/PID/task/*/comm`, which scripts/bench/uncached_bench.py reads).
                Thread.current.name = "heatmap-render"
                work()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// A thread's loop: the next job while any waits, else idle until a job wakes it, ending
    /// when none came for a while.
    private func work() {
        let wake = DispatchSemaphore(value: 0)
        while true {
            let job: Job? = state.withLock { state in
                if let job = state.pop() { return job }
                state.idle.append(wake)
                return nil
            }
            if let job {
                job()
                continue
            }
            guard wake.wait(timeout: .now() + Self.idleSeconds) == .timedOut else { continue }
            let stop = state.withLock { state in
                guard let index = state.idle.firstIndex(where: { $0 === wake }) else { return false }
                state.idle.remove(at: index)
                state.threads -= 1
                return true
            }
            if stop { return }
            // A job took this thread off the idle list as the wait ended: its signal is on the way.
            wake.wait()
        }
    }
}

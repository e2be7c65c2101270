import Dispatch
import Foundation
import Synchronization
import Testing

@testable import HeatmapServer

@Suite struct RenderPoolTests {
    @Test func everyJobRunsOnAtMostTheLimitOfThreads() {
        let pool = RenderPool(threads: 2)
        let running = Atomic<Int>(0)
        let most = Atomic<Int>(0)
        let done = Atomic<Int>(0)
        let group = DispatchGroup()
        for _ in 0..<200 {
            group.enter()
            pool.async {
                let now = running.add(1, ordering: .sequentiallyConsistent).newValue
                _ = most.max(now, ordering: .sequentiallyConsistent)
                var x = 0
                for i in 0..<10_000 { x &+= i }  // a little work, so jobs overlap
                if x > 0 { done.add(1, ordering: .relaxed) }
                running.subtract(1, ordering: .sequentiallyConsistent)
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(done.load(ordering: .relaxed) == 200)
        #expect((1...2).contains(most.load(ordering: .relaxed)))
    }

    @Test func aJobMayQueueAnotherAndItRuns() {
        let pool = RenderPool(threads: 1)
        let group = DispatchGroup()
        let order = Mutex<[Int]>([])
        group.enter()
        pool.async {
            order.withLock { $0.append(1) }
            pool.async {
                order.withLock { $0.append(2) }
                group.leave()
            }
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(order.withLock { $0 } == [1, 2])
    }

    @Test func jobsOneAtATimeGoToTheThreadIdleLast() {
        let pool = RenderPool(threads: 2)
        // Two jobs at once start both threads.
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for _ in 0..<2 {
            pool.async {
                started.signal()
                release.wait()
            }
        }
        #expect(started.wait(timeout: .now() + 30) == .success)
        #expect(started.wait(timeout: .now() + 30) == .success)
        release.signal()
        release.signal()
        let threads = Mutex<[ObjectIdentifier]>([])
        for _ in 0..<8 {
            #expect(Self.waitUntil { pool.idleThreads == 2 })
            let done = DispatchSemaphore(value: 0)
            pool.async {
                threads.withLock { $0.append(ObjectIdentifier(Thread.current)) }
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 30) == .success)
        }
        // Last in, first out: the thread that just finished is the one woken, every time.
        #expect(threads.withLock { $0.count } == 8)
        #expect(Set(threads.withLock { $0 }).count == 1)
    }

    /// Polls `condition` every millisecond for at most 30 s.
    static func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<30_000 {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }

    @Test func rendersReportTheirThreadCPUTime() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        #expect(try client.get("/police/6/57/39@2x.png").status == 200)
        #expect(try server.metric("heatmap_tile_render_cpu_seconds_count") == 1)
        let cpu = try #require(try server.metric("heatmap_tile_render_cpu_seconds_sum"))
        let wall = try #require(try server.metric("heatmap_tile_render_seconds_sum"))
        // One thread's CPU time cannot exceed the wall time around it.
        #expect(cpu > 0)
        #expect(cpu <= wall + 1e-6)
        let text = try client.get("/metrics").text
        #expect(text.contains("# TYPE heatmap_tile_render_cpu_seconds histogram\n"))
        #expect(text.contains("heatmap_tile_render_cpu_seconds_bucket{le=\"+Inf\"} 1\n"))
    }
}

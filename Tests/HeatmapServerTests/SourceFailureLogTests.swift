import HeatmapKit
import Synchronization
import Testing

@testable import HeatmapServer

/// A failing source's detail is logged once an episode, never flooding the log, and clients
/// get a plain sentence.
@Suite struct SourceFailureLogTests {
    @Test("one line at an episode's start and one at its end; a flapping source at most that in the quiet period")
    func episodes() {
        let log = SourceFailureLog()
        let lines = Mutex<[String]>([])
        let write: @Sendable (String) -> Void = { line in lines.withLock { $0.append(line) } }
        let down = HeatmapError.sourceFailed("could not connect to PostgreSQL (postgresql://u:***@db.internal:5432/x)")
        for _ in 0..<100 {
            #expect(log.publicMessage(for: down, layer: "crimes", write: write) == SourceFailureLog.unavailableMessage)
        }
        #expect(lines.withLock { $0.count } == 1)
        #expect(lines.withLock { $0.first?.contains("db.internal:5432") } == true, "the detail is in the log")
        log.drawn(layer: "crimes", write: write)
        #expect(
            lines.withLock { $0.last }
                == "heatmap: layer crimes: the source answers again (100 requests were refused meanwhile)")
        // Flapping within the quiet period: failures and drawn tiles alternate, nothing more is logged.
        for _ in 0..<50 {
            _ = log.publicMessage(for: down, layer: "crimes", write: write)
            log.drawn(layer: "crimes", write: write)
        }
        #expect(lines.withLock { $0.count } == 2)
        // Another layer has its own episodes; a timeout has its own sentence; other errors are not the log's.
        let slow = HeatmapError.sourceTimedOut("canceling statement due to statement timeout")
        #expect(log.publicMessage(for: slow, layer: "other", write: write) == SourceFailureLog.timedOutMessage)
        #expect(log.publicMessage(for: .unsupportedZoom(40), layer: "other", write: write) == nil)
        #expect(lines.withLock { $0.count } == 3)
        #expect(!SourceFailureLog.unavailableMessage.contains("PostgreSQL"))
    }
}

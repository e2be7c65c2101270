import Foundation
import HeatmapKit
import HeatmapTestSupport
import Testing

@testable import HeatmapPostgres

/// `render --postgres` failing at each step before the tiles says which step, and what became
/// of the output.
@Suite(.needsPostgres) struct RenderFailureTests {
    /// A `--where` that fails (division by zero) only in statements whose text holds `word`
    /// (spelt backwards in the condition, so that the condition's own text does not hold it).
    static func failing(in word: String) -> String {
        "CASE WHEN position(reverse('\(String(word.reversed()))') in current_query()) > 0 "
            + "THEN 1 / (length(current_query()) - length(current_query())) ELSE 1 END = 1"
    }

    @Test("a failure reading the extent, finding the tiles or computing M(z) names the step and the output's state")
    func steps() throws {
        let cluster = try TestCluster.require()
        _ = try PostgresImport.run(
            points: PostgresSourceTests.points, into: "render_failing", connection: cluster.conninfo, mode: .replace)
        // M(z)'s statements are the cell questions (`HAVING sum(weight) >= threshold`), which neither
        // the extent's nor the tile finder's statements hold; a heaviest-first `ORDER BY` is not
        // asked at every zoom since the dives rank whole levels.
        let cases: [(word: String, message: String, left: Bool)] = [
            ("GROUP BY", "reading table render_failing's extent: PostgreSQL: ERROR:  division by zero", false),
            ("EXISTS", "finding the tiles: could not read the weights: PostgreSQL: ERROR:  division by zero", true),
            (
                "HAVING",
                "(M(z), found before the tiles): could not read the weights: PostgreSQL: ERROR:  division by zero",
                false
            ),
        ]
        for (word, message, left) in cases {
            let output = TestProgram.temporaryPath("render-failing", "heat.mbtiles")
            defer { try? FileManager.default.removeItem(atPath: output) }
            let run = try HeatmapCommand.run([
                "render", "--postgres", cluster.url, "--table", "render_failing", "--zoom", "4-5", "--output", output,
                "--where", Self.failing(in: word), "--quiet",
            ])
            #expect(run.status == 1, "\(word): \(run.standardError)")
            #expect(run.standardError.contains(message), "\(word): \(run.standardError)")
            #expect(FileManager.default.fileExists(atPath: output) == left, "\(word)")
            let state =
                left
                ? "\(output) is kept with no tile yet: --resume continues it, --force starts again"
                : "nothing was written to \(output)"
            #expect(run.standardError.contains(state), "\(word): \(run.standardError)")
            #expect(!run.standardError.contains(TestCluster.password))
        }
    }
}

import Foundation
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// `--where`: one SQL condition, refused at the start with a message that quotes it when it
/// is not (never a puzzling failure of the tiles later, never connection detail).
@Suite struct WhereConditionTests {
    @Test(
        "texts that would not stay one condition inside (…) are refused, saying why",
        arguments: [
            ("true) OR (1=1", "closes a parenthesis it did not open (character 5)"),
            ("(lat < 0", "1 of its parentheses is not closed"),
            ("lat > 0; DROP TABLE t", "holds a ; (character 8)"),
            ("weight > 0 -- only heavy", "ends in a -- comment"),
            ("name = 'x", "a string ('…') opened at character 8 is not closed"),
            ("\"name = 1", "a quoted name"),
            ("a = $$x", "a $-quoted string opened at character 5"),
            ("a = 1 /* x", "a /* comment opened at character 7"),
            ("name = E'it\\'s) OR (1=1", "a string ('…') opened at character 9 is not closed"),
        ])
    func refused(text: String, reason: String) {
        let problem = SQLCondition.problem(in: text)
        #expect(problem?.contains(reason) == true, "\(text): \(problem ?? "accepted")")
    }

    @Test(
        "parentheses, semicolons and dashes inside strings, names, $-quotes and comments do not count",
        arguments: [
            "lat < -37", "name = ')' AND (x > 1)", "name = 'it''s (' OR \"a)b\" = 1", "tag = $t$ ); -- $t$",
            "a = 1 /* ) /* nested ; */ ( */", "a = 1 -- a comment\n AND b = 2", "a = $1", "a$b = 1", "name = E'\\')'",
            "x - -1 > 0",
        ])
    func accepted(text: String) {
        #expect(SQLCondition.problem(in: text) == nil, "\(text)")
    }

    @Test(
        "random texts of quotes, dollars, dashes, slashes and parentheses: an answer, never a trap; a refused one says why"
    )
    func randomTexts() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("()'\"$-/*;\nEe_a1 \\t$$")
        var refused = 0
        for _ in 0..<3000 {
            let length = Int.random(in: 0...24, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            if let problem = SQLCondition.problem(in: text) {
                refused += 1
                #expect(!problem.isEmpty, "\(text)")
            }
            // Balanced parentheses around anything accepted are accepted too.
            if SQLCondition.problem(in: text) == nil { #expect(SQLCondition.problem(in: "(" + text + ")") == nil) }
        }
        #expect(refused > 0)
    }

    @Test(
        "a table's --where is checked when the source connects: quoted, PostgreSQL's message, no detail", .needsPostgres
    )
    func checkedAtConnect() throws {
        let cluster = try TestCluster.require()
        _ = try PostgresImport.run(
            points: LiveDataTests.points, into: "where_checked", connection: cluster.conninfo, mode: .replace)
        let cases: [(String, String)] = [
            ("true) OR (1=1", "--where \"true) OR (1=1\" is not a valid SQL condition: it closes a parenthesis"),
            ("no_such > 0", "--where \"no_such > 0\" is not a valid SQL condition: column \"no_such\" does not exist"),
            ("1", "--where \"1\" is not a valid SQL condition: argument of WHERE must be type boolean"),
            ("lat >", "--where \"lat >\" is not a valid SQL condition: syntax error"),
        ]
        for (filter, expected) in cases {
            do {
                _ = try PostgresSource(
                    connection: cluster.conninfo, table: PostgresTable(name: "where_checked", filter: filter))
                Issue.record("\(filter) was accepted")
            } catch {
                let text = error.description
                #expect(text.hasPrefix(expected), "\(text)")
                for detail in ["127.0.0.1", String(cluster.port), TestCluster.password, "LINE", "SELECT 1 FROM"] {
                    #expect(!text.contains(detail), "\(text)")
                }
            }
        }
        let source = try PostgresSource(
            connection: cluster.conninfo, table: PostgresTable(name: "where_checked", filter: "(weight > 0)"))
        #expect(try source.summary().rows == LiveDataTests.points.count)
    }

    @Test(
        "heatmap info --where \"true) OR (1=1\" exits 1 saying the --where text is not a valid SQL condition",
        .needsPostgres)
    func command() throws {
        let cluster = try TestCluster.require()
        _ = try PostgresImport.run(
            points: LiveDataTests.points, into: "where_command", connection: cluster.conninfo, mode: .replace)
        let run = try HeatmapCommand.run([
            "info", "--postgres", cluster.url, "--table", "where_command", "--where", "true) OR (1=1",
        ])
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardError.contains("--where \"true) OR (1=1\" is not a valid SQL condition"))
        #expect(!run.standardError.contains(TestCluster.password))
    }
}

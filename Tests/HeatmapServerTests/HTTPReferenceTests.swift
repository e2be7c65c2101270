import Foundation
import HeatmapKit
import Testing

@testable import HeatmapServer

/// docs/reference/http.md against the server: every route the server has is shown there with an example path that
/// routes to it, and every example routes somewhere, so the page cannot drift from the route table.
@Suite struct HTTPReferenceTests {
    /// The page, read from the repository this file is in.
    static func page() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("docs/reference/http.md"), encoding: .utf8)
    }

    /// The rows of the table after the comment `<!-- NAME: … -->`, each as its cells.
    static func table(_ name: String, in page: String) -> [[String]] {
        let lines = page.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("<!-- \(name):") }) else { return [] }
        var rows: [[String]] = []
        for line in lines[(start + 1)...] {
            if line.isEmpty && rows.isEmpty { continue }
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            rows.append(cells)
        }
        return Array(rows.dropFirst(2))  // the header and its rule
    }

    /// The text inside the backticks of a cell, each span.
    static func codeSpans(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The kind of a route, by an exhaustive switch: a new case of `Route` does not compile here until it is
    /// given a kind, and then the page must show an example of it.
    static func kind(_ route: Route) -> String? {
        switch route {
        case .page: "page"
        case .asset: "asset"
        case .catalog: "catalog"
        case .health: "health"
        case .metrics: "metrics"
        case .tileJSON: "tilejson"
        case .tile: "tile"
        case .staticImage: "static"
        case .legend: "legend"
        case .points: "points"
        case .badTile, .badStatic, .notFound: nil  // what a path that is no route gets
        }
    }

    /// The kind of a path: its route's, or `webp` for a tile's path ending in `.webp` (answered as the PNG tile of
    /// the same path, converted: `TileService.webpTile`).
    static func kind(path: String) -> String? {
        if path.hasSuffix(".webp"), case .tile = Route(path: String(path.dropLast(5)) + ".png") { return "webp" }
        return kind(Route(path: path))
    }

    static let kinds: Set = [
        "page", "asset", "catalog", "health", "metrics", "tilejson", "tile", "webp", "static", "legend", "points",
    ]

    @Test("every route of the server has an example on the page, and every example routes")
    func routes() throws {
        let rows = Self.table("routes", in: try Self.page())
        #expect(rows.count >= Self.kinds.count)
        var shown: Set<String> = []
        for row in rows where row.count == 3 && !row[1].isEmpty {
            let example = try #require(Self.codeSpans(row[1]).first, "no example in \(row)")
            let path = String(example.split(separator: "?", maxSplits: 1)[0])
            let kind = Self.kind(path: path)
            #expect(kind != nil, "http.md's example \(example) is no route of the server")
            if let kind { shown.insert(kind) }
        }
        #expect(shown == Self.kinds, "routes without an example in http.md: \(Self.kinds.subtracting(shown))")
    }

    /// The parameters a table lists, by the first code span of each row's first cell (and any others there:
    /// older spellings).
    static func parameters(_ name: String) throws -> [[String]] {
        Self.table(name, in: try Self.page()).map { Self.codeSpans($0[0]) }.filter { !$0.isEmpty }
    }

    @Test("the page's tile settings are SettingsSchema's rows, names and aliases, and each refuses a bad value by name")
    func settings() throws {
        let rows = try Self.parameters("settings")
        let schema = SettingsSchema.rows.map { [$0.name] + $0.aliases }
        #expect(
            Set(rows) == Set(schema),
            "http.md lists \(Set(rows).subtracting(schema)) that the schema lacks; the schema has \(Set(schema).subtracting(rows)) the page lacks"
        )
        for spellings in rows {
            for name in spellings {
                // A value no setting takes: the parser must refuse it, naming the parameter.
                do {
                    _ = try SettingOverrides(query: [(name: name, value: "no such value")])
                    Issue.record("\(name)=no such value was taken")
                } catch {
                    #expect(
                        error.description.contains(name) || spellings.contains { error.description.contains($0) },
                        "\(name): \(error.description)")
                }
            }
        }
    }

    @Test("every legend parameter on the page is one the legend's query reads, with a message naming it")
    func legendParameters() throws {
        let rows = try Self.parameters("legend")
        #expect(rows.map { $0[0] } == ["z", "scale", "stops"])
        for name in rows.flatMap({ $0 }) {
            let items = name == "z" ? [(name: "z", value: "x")] : [(name: "z", value: "7"), (name: name, value: "x")]
            do {
                _ = try LegendQuery(items, zooms: 0...22)
                Issue.record("legend parameter \(name)=x was taken")
            } catch {
                #expect(error.description.contains(name), "\(name): \(error.description)")
            }
        }
    }
}

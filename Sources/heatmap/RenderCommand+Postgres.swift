import Foundation
import HeatmapKit
import HeatmapPostgres
import HeatmapServer
import HeatmapTiles

extension RenderCommand {
    /// Refuses what has no meaning for the source: `--layer-name` (a served layer's) always,
    /// and with `--postgres` the options that read a file.
    static func refuseWithPostgres(_ list: ArgumentList, postgres: Bool) throws(CommandError) {
        if list.text("layer-name") != nil {
            throw .usage("--layer-name names a served layer: render takes --name NAME for the tile set")
        }
        guard postgres else { return }
        try PostgresArguments.refuseFileOptions(list)
    }

    /// `render --postgres`: every tile from one state of the table. The source is pinned to the
    /// table's change count at the start, which the walk's `EXISTS`, every tile and every M(z)
    /// search check in their own statement or snapshot, so a render that meets a newer state
    /// stops (saying so) rather than mix two; M(z) is computed once a zoom, before the tiles.
    func runPostgres(_ connection: ConnectionString, _ table: PostgresTable) throws(CommandError) {
        let timeout = statementTimeout.map { Duration.milliseconds(Int(($0 * 1000).rounded(.up))) }
        let base = try PostgresArguments.source(connection, table, statementTimeout: timeout)
        let count: Int64?
        let extent: PostgresTableExtent
        let source: PostgresSource
        do {
            count = try base.changeCount()
            source = base.pinned(toChangeCount: count)
            extent = try source.extent(sampling: false)
        } catch {
            throw CommandError(
                "reading table \(table.name)'s extent: \(error.description); nothing was written to \(output)")
        }
        if count == nil, !quiet {
            StandardStreams.error(
                "heatmap: table \(table.name) has no change count (a table import did not make), so rows "
                    + "written during the render may show in some tiles and not others\n")
        }
        // With --value, both channels are pinned to the same count as the density, and the walk
        // visits the density's tiles (the rows of positive weight, every one with a finite value).
        let (layer, walked) = try PostgresArguments.renderLayer(
            source, valueColumn: options.valueColumn, settings: settings)
        let walk: PyramidWalk
        do {
            walk = try PyramidWalk(source: walked, zooms: zooms, scale: scale, area: area) {
                (zoom) throws(HeatmapError) in try layer.kernelRadius(zoom: zoom, scale: scale)
            }
        } catch {
            throw CommandError(
                "finding the tiles of table \(table.name): \(error.description); nothing was written to \(output)")
        }
        var options = recorded
        options["points"] = String(extent.rows)
        options["change"] = count.map { String($0) } ?? "none"
        let centre = extent.bounds.map { ($0.south + $0.north) / 2 } ?? 0
        let failed = { (reason: String) -> String in
            guard let count, let now = try? base.changeCount(), now != count else { return reason }
            return "table \(table.name) changed during the render (change \(count) at the start, \(now) now), "
                + "so it stopped rather than mix two states: \(reason); --resume refuses a newer state: "
                + "render again with --force"
        }
        // With --datetime, --category, --scale-of: the table's rows they keep, drawn as the server
        // draws `?datetime=&category=` (the command's one heatmap with filters, over the pinned
        // source, its filters pushed down as bound parameters), its legends theirs.
        let drawn: any TileLayer
        let legends: [String: TileLegend]
        // The rows the filters keep: their count and extent, in the metadata (one statement over
        // the pinned source, the filter's values bound).
        var kept: (query: String, extent: PostgresTableExtent)?
        do throws(CommandError) {
            if let request = overrides.filter {
                let filtered = try FilterArguments.heatmap(
                    source, name: "table", settings: settings, filters: overrides.filters, count: extent.rows,
                    bounds: extent.bounds)
                legends = try self.legends(filtered)
                drawn = filtered
                do {
                    let rows = try source.filtered(window: request.window, categories: request.categories)
                    kept = (request.query, try rows.extent(sampling: false))
                } catch {
                    throw CommandError("counting the rows the filters keep: \(error.description)")
                }
            } else {
                legends = try self.legends { (zoom) throws(HeatmapError) in
                    try layer.legend(zoom: zoom, scale: scale)
                }
                drawn = layer
            }
        } catch {
            // A usage error names the filter the table cannot take; anything else may be its change.
            throw error.status == 64 ? error : CommandError(failed(error.description))
        }
        if let kept {
            options["filter"] = kept.query
            options["kept"] = String(kept.extent.rows)
        }
        let bounds = kept?.extent.bounds ?? extent.bounds
        let metadata = self.metadata(
            bounds: bounds, points: extent.rows,
            centreLatitude: bounds.map { ($0.south + $0.north) / 2 } ?? centre,
            source: "PostgreSQL table \(table.name)", options: options, legends: legends,
            filter: kept.map { ($0.query, $0.extent.rows) })
        try render(layer: drawn, walk: walk, metadata: metadata, failed: failed)
    }
}

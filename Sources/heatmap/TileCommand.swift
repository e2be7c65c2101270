import Foundation
import HeatmapKit

/// `heatmap tile DATA z/x/y[@2x] [options]`: one tile as PNG, or its raw intensities.
struct TileCommand {
    static let usage = """
        usage: heatmap tile DATA Z/X/Y[@2x|@3x] [--radius N] [--opacity F] [--max-intensity M]
                            [--gradient G] [--color-map-size N] [--color-scale linear|sqrt|log]
                            [--min-zoom-intensity Z] [--max-zoom-intensity Z]
                            [--format png|intensity] [--output FILE]
                            [--data-format F] [--lat COL] [--lng COL] [--weight COL] [--skip-invalid]
          DATA               points: JSON, CSV, TSV, GeoJSON or NDJSON, gzip too; - for standard input
          Z/X/Y              the tile in the XYZ scheme (0/0/0 is the whole world); @2x for 512 px
          --radius N         kernel radius in points, 10...50 (default 20)
          --opacity F        0...1 (default 0.7)
          --max-intensity M  a fixed normalisation value instead of the zoom's true maximum
        \(AppearanceArguments.help)
          --format           png (default), or intensity: Float32 little-endian, row-major,
                             north row first, before normalisation
          --output FILE      where to write (default: standard output)
        \(DataArguments.help)
        An empty tile prints "no tile" on standard error and writes nothing.
        """

    var dataPath: String
    var tile: TileAddress
    var settings: HeatmapSettings
    var format: String
    var output: String?
    var options: PointReadOptions

    init(_ arguments: [String]) throws(CommandError) {
        let list = try ArgumentList(
            arguments,
            valued: DataArguments.valued.union(["radius", "opacity", "max-intensity", "format", "output"])
                .union(AppearanceArguments.valued),
            flags: DataArguments.flags)
        guard list.positionals.count == 2 else {
            throw .usage("tile needs DATA and Z/X/Y, got \(list.positionals.count) arguments\n\(Self.usage)")
        }
        dataPath = list.positionals[0]
        tile = try TileAddress(parsing: list.positionals[1])
        settings = HeatmapSettings()
        settings.radius = try list.integer("radius") ?? settings.radius
        settings.opacity = try list.number("opacity") ?? settings.opacity
        settings.maximumIntensity = try list.number("max-intensity")
        try AppearanceArguments.apply(list, to: &settings)
        format = list.text("format") ?? "png"
        guard ["png", "intensity"].contains(format) else {
            throw .usage("--format is png or intensity, got \"\(format)\"")
        }
        output = list.text("output")
        options = try DataArguments.options(list)
        do {
            try settings.validate()
        } catch {
            throw .usage(error.description)
        }
    }

    func run() throws(CommandError) {
        let file = try DataArguments.read(dataPath, options: options)
        let layer = HeatmapTileLayer(index: file.index, settings: settings)
        let bytes: [UInt8]
        do {
            if format == "intensity" {
                guard let grid = try layer.intensity(x: tile.x, y: tile.y, zoom: tile.zoom, scale: tile.scale) else {
                    return reportNoTile()
                }
                bytes = grid.values.flatMap { value in withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }
                }
            } else {
                guard case .image(let png) = try layer.tileFor(x: tile.x, y: tile.y, zoom: tile.zoom, scale: tile.scale)
                else { return reportNoTile() }
                bytes = png
            }
        } catch {
            throw CommandError(error.description)
        }
        try write(bytes)
    }

    private func reportNoTile() {
        FileHandle.standardError.write(Data("no tile\n".utf8))
    }

    private func write(_ bytes: [UInt8]) throws(CommandError) {
        guard let output else {
            guard isatty(STDOUT_FILENO) == 0 else {
                throw .usage("refusing to write a binary tile to the terminal; give --output FILE or redirect")
            }
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else {
            throw CommandError("cannot write \(output)")
        }
    }
}

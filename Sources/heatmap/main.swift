import Foundation

let usage = """
    heatmap: heatmap tiles from weighted points

    usage: heatmap tile DATA Z/X/Y[@2x] [options]   write one tile as PNG
           heatmap info DATA [options]             points, bounds, weights, zooms and M(z) of a data file
           heatmap serve DATA... [options]          serve tiles and a map page over HTTP
           heatmap import DATA --postgres URL --table T   load points into PostgreSQL
           heatmap help [COMMAND]

    Run `heatmap help tile` for the options.
    """

func run(_ arguments: [String]) throws(CommandError) {
    guard let command = arguments.first else { throw .usage(usage) }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "tile":
        try TileCommand(rest).run()
    case "info":
        try InfoCommand(rest).run()
    case "serve":
        try ServeCommand(rest).run()
    case "import":
        try ImportCommand(rest).run()
    case "help", "--help", "-h":
        switch rest.first {
        case "tile": print(TileCommand.usage)
        case "info": print(InfoCommand.usage)
        case "serve": print(ServeCommand.usage)
        case "import": print(ImportCommand.usage)
        default: print(usage)
        }
    default:
        throw .usage("unknown command \"\(command)\"\n\(usage)")
    }
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("heatmap: \(error.description)\n".utf8))
    exit(error.status)
}

import Foundation

let usage = """
    heatmap: heatmap tiles from weighted points

    usage: heatmap tile DATA Z/X/Y[@2x] [options]   write one tile as PNG
           heatmap image DATA --center LAT,LNG --zoom Z --size WxH [options]   a static image of any viewport
           heatmap info DATA [options]             points, bounds, weights, zooms and M(z) of a data file
           heatmap render DATA --zoom A-B --output OUT   every tile of a zoom range into MBTiles,
                                                         PMTiles or a folder
           heatmap serve DATA... [options]          serve tiles and a map page over HTTP
           heatmap import DATA --postgres URL --table T   load points into PostgreSQL
           heatmap help [COMMAND]

    Run `heatmap help tile` for the options.
    """

func run(_ arguments: [String]) throws(CommandError) {
    guard let command = arguments.first else { throw .usage(usage) }
    let rest = Array(arguments.dropFirst())
    let commands: Set = ["tile", "image", "info", "render", "serve", "import"]
    if commands.contains(command), rest.contains("--help") || rest.contains("-h") {
        return try run(["help", command])  // `heatmap tile --help` as `heatmap help tile`
    }
    switch command {
    case "tile":
        try TileCommand(rest).run()
    case "image":
        try ImageCommand(rest).run()
    case "info":
        try InfoCommand(rest).run()
    case "render":
        try RenderCommand(rest).run()
    case "serve":
        try ServeCommand(rest).run()
    case "import":
        try ImportCommand(rest).run()
    case "help", "--help", "-h":
        switch rest.first {
        case "tile": print(TileCommand.usage)
        case "image": print(ImageCommand.usage)
        case "info": print(InfoCommand.usage)
        case "render": print(RenderCommand.usage)
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
    try StandardStreams.flushOutput()
} catch {
    if !error.description.isEmpty { StandardStreams.error("heatmap: \(error.description)\n") }
    exit(error.status)
}

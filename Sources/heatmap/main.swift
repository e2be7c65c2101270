import Foundation

let usage = """
    heatmap: heatmap tiles from weighted points

    usage: heatmap tile DATA Z/X/Y[@2x] [options]   write one tile as PNG
           heatmap help [COMMAND]

    Run `heatmap help tile` for the options.
    """

func run(_ arguments: [String]) throws(CommandError) {
    guard let command = arguments.first else { throw .usage(usage) }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "tile":
        try TileCommand(rest).run()
    case "help", "--help", "-h":
        print(rest.first == "tile" ? TileCommand.usage : usage)
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

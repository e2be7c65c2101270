import HeatmapServer

extension ServeCommand {
    /// The options of live points: `--write-token-file FILE` and `--max-body-mb N`.
    static let writeValued: Set<String> = ["write-token-file", "max-body-mb"]

    /// Help for the options of live points.
    static let writeHelp = """
          --write-token-file FILE  allow POST and DELETE /{layer}/points with Authorization: Bearer
                             TOKEN, the file's first line (without it the routes answer 403)
          --max-body-mb N    the largest request body read, MiB (default 16; 413 beyond)
        """

    /// The write token (read now, never printed) and the body limit in bytes.
    static func writeOptions(_ list: ArgumentList) throws(CommandError) -> (token: WriteToken?, maxBodyBytes: Int) {
        let megabytes = try list.integer("max-body-mb") ?? 16
        guard (1...1024).contains(megabytes) else { throw .usage("--max-body-mb \(megabytes) is outside 1...1024") }
        guard let path = list.text("write-token-file") else { return (nil, megabytes << 20) }
        do {
            return (try WriteToken.load(path: path), megabytes << 20)
        } catch {
            throw CommandError(error.description)
        }
    }
}

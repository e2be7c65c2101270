import Foundation

extension Process {
    /// Runs the process (a `heatmap serve … --port 0`, its executable and arguments set) with
    /// standard output on a pipe, and reads its banner, the first line
    /// ("heatmap: serving police_stations on http://127.0.0.1:PORT/"): the banner and the port,
    /// or nil for the port when the server did not start. Set `standardError` before.
    func runServing() throws -> (banner: String, port: Int?) {
        let output = Pipe()
        standardOutput = output
        try run()
        var banner = ""
        while !banner.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            banner += String(decoding: chunk, as: UTF8.self)
        }
        return (banner, banner.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) })
    }
}

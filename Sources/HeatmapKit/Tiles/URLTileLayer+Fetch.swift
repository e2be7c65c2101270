import Dispatch
import Foundation

extension URLTileLayer {
    /// A `file://` tile: missing is no tile; unreadable, oversized or not a PNG of the layer's
    /// size is an error naming the file.
    func readFile(_ url: URL) throws(TileLayerError) -> TileResult {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .noTile }
        guard !isDirectory.boolValue else { throw .unreadableFile(layer: name, path: path, reason: "it is a folder") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreadableFile(layer: name, path: path, reason: "permission denied or not a regular file")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumTileBytes + 1) ?? Data()
        } catch {
            throw .unreadableFile(layer: name, path: path, reason: "\(error.localizedDescription)")
        }
        guard data.count <= maximumTileBytes else {
            throw .unreadableFile(layer: name, path: path, reason: "larger than \(maximumTileBytes) bytes")
        }
        let bytes = [UInt8](data)
        guard let header = PNGHeader(bytes) else {
            throw .invalidImage(layer: name, reason: "\(path) is not a PNG")
        }
        guard PNGHeader.isComplete(bytes) else {
            throw .invalidImage(layer: name, reason: "\(path) is cut short (no IEND chunk at its end)")
        }
        try checkSize(header)
        return .image(bytes)
    }

    /// An `http(s)://` tile, within ``timeout`` seconds all told: a slot of its host, then the
    /// request. 3xx (never followed), errors and other statuses are not available yet.
    func fetch(_ url: URL) async throws(TileLayerError) -> TileResult {
        let host = "\(url.scheme ?? "")://\(url.host ?? ""):\(url.port.map(String.init) ?? "")"
        let start = DispatchTime.now()
        guard await slots.acquire(host, timeout: timeout) else { return .notAvailableYet }
        defer { slots.release(host) }
        let spent = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let remaining = timeout - spent
        guard remaining > 0, !Task.isCancelled else { return .notAvailableYet }
        guard let response = await fetcher.get(url, timeout: remaining, maximumBytes: maximumTileBytes) else {
            return .notAvailableYet
        }
        let body = response.body
        switch response.status {
        case 204, 404:
            return .noTile
        case 200..<300:
            guard let header = PNGHeader(body), PNGHeader.isComplete(body) else { return .notAvailableYet }
            try checkSize(header)
            return .image(body)
        default:
            return .notAvailableYet
        }
    }

    private func checkSize(_ header: PNGHeader) throws(TileLayerError) {
        guard header.width == tileSize, header.height == tileSize else {
            throw .wrongImageSize(layer: name, expected: tileSize, width: header.width, height: header.height)
        }
    }
}

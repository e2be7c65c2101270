import Foundation
import HeatmapTestSupport

/// A blocking HTTP client over a real loopback socket, for protocol tests: sends raw bytes,
/// reads responses framed by Content-Length. Every read gives up after `timeout` seconds.
final class TestClient: @unchecked Sendable {  // one thread at a time
    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int, timeout: Double = 10, receiveBuffer: Int32? = nil) throws {
        fd = TestSocket.tcp()
        guard fd >= 0 else { throw Failure(description: "socket") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // No close here: the object is whole, so `deinit` runs and closes it (twice would close
        // whatever descriptor another test opened in between).
        guard connected == 0 else { throw Failure(description: "connect: \(String(cString: strerror(errno)))") }
        var limit = TestSocket.timeout(timeout)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes {
                TestSocket.send(fd, $0.baseAddress.map { $0 + sent }, bytes.count - sent)
            }
            guard n > 0 else { throw Failure(description: "send failed") }
            sent += n
        }
    }

    /// Closes the write side, as a client that has nothing more to say.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads more bytes; false at end of stream or timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { return false }
        buffer += chunk[0..<n]
        return true
    }

    /// The next response; `headOnly` for a response to HEAD (no body whatever Content-Length says).
    func read(headOnly: Bool = false) throws -> Response {
        var end: Int?
        while end == nil {
            end = Self.headEnd(buffer)
            if end == nil && !fill() { throw Failure(description: "connection closed before a response head") }
        }
        guard let headEnd = end else { throw Failure(description: "no head") }
        let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd)
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(head)")
        }
        let headers = lines.map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : "")
        }
        var response = Response(status: status, headers: headers, body: [])
        let length = response.header("Content-Length").flatMap { Int($0) } ?? 0
        if !headOnly && status != 204 && status != 304 && length > 0 {
            while buffer.count < length {
                if !fill() { throw Failure(description: "connection closed inside a body") }
            }
            response.body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        }
        return response
    }

    /// Whether the server closes the connection (reads to the end, discarding), within the timeout.
    func isClosedByServer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }

    /// One request, one response.
    func get(_ path: String, headers: [String: String] = [:], method: String = "GET") throws -> Response {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        try send(text + "\r\n")
        return try read(headOnly: method == "HEAD")
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i + 4
        }
        return nil
    }
}

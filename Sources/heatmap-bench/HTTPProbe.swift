import Foundation

/// A blocking HTTP/1.1 GET on loopback, for the benchmark's server measurements.
enum HTTPProbe {
    /// Asks `path` of 127.0.0.1:`port` (`Connection: close`); returns the status and the
    /// bytes of the body.
    static func get(port: Int, path: String) throws -> (status: Int, bytes: Int) {
        let answer = try request(port: port, path: path)
        return (answer.status, answer.body.count)
    }

    /// One request on its own connection (`Connection: close`): the status and the body.
    static func request(
        port: Int, method: String = "GET", path: String, headers: [String] = [], body: [UInt8] = []
    ) throws -> (status: Int, body: [UInt8]) {
        let fd = socket(AF_INET, streamSocketType, 0)
        guard fd >= 0 else { throw OptionError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw OptionError("connect: \(String(cString: strerror(errno)))") }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        let bytes = Array((head + "\r\n").utf8) + body
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw OptionError("send: \(String(cString: strerror(errno)))") }
            sent += n
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            response += buffer[0..<n]
        }
        let status =
            String(decoding: response.prefix(64), as: UTF8.self).split(separator: " ").dropFirst().first
            .flatMap { Int($0) } ?? 0
        var end = 0
        while end + 3 < response.count,
            !(response[end] == 13 && response[end + 1] == 10 && response[end + 2] == 13 && response[end + 3] == 10)
        {
            end += 1
        }
        return (status, end + 4 <= response.count ? Array(response[(end + 4)...]) : [])
    }

    /// Asks `path` every 0.1 s until it answers 200, for at most `seconds`; returns whether it did
    /// (a server just started reads its data first).
    static func waitUntilAnswered(port: Int, path: String, seconds: Int) -> Bool {
        for _ in 0..<(seconds * 10) {
            if (try? get(port: port, path: path))?.status == 200 { return true }
            usleep(100_000)
        }
        return false
    }

    /// A port no one listens on now, from the kernel.
    static func freePort() -> Int {
        let fd = socket(AF_INET, streamSocketType, 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

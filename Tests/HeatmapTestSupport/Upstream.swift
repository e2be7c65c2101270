import Foundation
import HeatmapKit
import Synchronization

/// A tile upstream for URL layer tests: HTTP/1.1 on a free 127.0.0.1 port, a thread per
/// connection, one request per connection. The first path component picks the behaviour:
/// `png` (200 and a 256 px PNG), `slow` (the same after `slowDelay` seconds), `hang` (nothing
/// for up to 30 s, until stopped), `500`, `404`, `204`, `garbage` (200 and text), `close`
/// (closes without answering), `cut` (200, half a PNG, no length, closed), `big` (200 and a 512 px PNG), `trickle` (a PNG's head, then a
/// byte every 50 ms), `flood` (200 without a length, then up to 64 MiB as fast as the client
/// takes it, in 64 KiB chunks), `huge` (the same up to 2 GiB), `redirect-slow` and `redirect-fast`
/// (302 to the same path after 300 and 50 ms), `redirect-png` (302 at once to the same tile
/// under `png`), `redirect-away` (302 at once to the same tile on 127.0.0.2, another origin). It
/// counts requests in flight.
public final class Upstream: Sendable {
    /// What the upstream has seen so far.
    public struct Counts: Sendable {
        /// Requests read.
        public var total = 0
        /// Requests read and not yet answered.
        public var inFlight = 0
        /// The most requests in flight at once.
        public var maximumInFlight = 0
        /// The paths asked for, in order.
        public var paths: [String] = []
        /// Bytes of `flood` bodies sent.
        public var floodBytesSent = 0
    }

    /// The port it listens on (127.0.0.1).
    public let port: Int
    /// The 256 px PNG of `png` and `slow`.
    public let png: [UInt8]
    /// The 512 px PNG of `big`.
    public let bigPNG: [UInt8]
    /// How long `slow` waits before answering, in seconds.
    public let slowDelay: Double
    private let listener: Int32
    private let counts = Mutex(Counts())
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Why the upstream could not start or make an image.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    /// Starts listening on a free loopback port, `slowDelay` seconds the delay of `slow`.
    public init(slowDelay: Double = 0.2) throws {
        self.slowDelay = slowDelay
        png = try Upstream.solidPNG(side: 256, red: 200, green: 30, blue: 40, alpha: 255)
        bigPNG = try Upstream.solidPNG(side: 512, red: 10, green: 30, blue: 240, alpha: 128)
        let fd = TestSocket.tcp()
        guard fd >= 0 else { throw Failure(description: "socket") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            close(fd)
            throw Failure(description: "bind/listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        listener = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// A template for `mode`: `http://127.0.0.1:PORT/mode/{z}/{x}/{y}.png`.
    public func template(_ mode: String) -> String { "http://127.0.0.1:\(port)/\(mode)/{z}/{x}/{y}.png" }

    /// The counts now.
    public var snapshot: Counts { counts.withLock { $0 } }

    /// Stops accepting, wakes hanging handlers and waits for the accept loop to end.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        _ = finished.wait(timeout: .now() + 5)
        close(listener)
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .acquiring) {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                break
            }
            let thread = Thread { [self] in handle(client) }
            thread.start()
        }
        finished.signal()
    }

    private func handle(_ fd: Int32) {
        defer { close(fd) }
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while findHeadEnd(head) == nil {
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0, head.count < 65536 else { return }
            head += chunk[0..<n]
        }
        let line = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let mode = path.split(separator: "/").first.map(String.init) ?? ""
        counts.withLock {
            $0.total += 1
            $0.inFlight += 1
            $0.maximumInFlight = max($0.maximumInFlight, $0.inFlight)
            $0.paths.append(path)
        }
        // A request stops counting as in flight before its answer is written: a client that has
        // its answer may send the next request at once, and that one must not find this one still
        // counted (this thread may not run again before it arrives). Seen so, a request's time in
        // flight lies within the client's, and the most at once never exceeds the client's bound.
        var counted = true
        func leave() {
            guard counted else { return }
            counted = false
            counts.withLock { $0.inFlight -= 1 }
        }
        defer { leave() }
        func answer(_ status: String, _ type: String?, _ body: [UInt8], length: Bool = true) {
            leave()
            respond(fd, status: status, type: type, body: body, length: length)
        }
        switch mode {
        case "png": answer("200 OK", "image/png", png)
        case "big": answer("200 OK", "image/png", bigPNG)
        case "slow":
            pause(slowDelay, fd)
            answer("200 OK", "image/png", png)
        case "hang": pause(30, fd)
        case "500": answer("500 Internal Server Error", "text/plain", Array("boom".utf8))
        case "404": answer("404 Not Found", "text/plain", Array("none".utf8))
        case "204": answer("204 No Content", nil, [])
        case "garbage": answer("200 OK", "image/png", Array("<html>not a png</html>".utf8))
        case "close": return
        case "cut": answer("200 OK", "image/png", Array(png.prefix(png.count / 2)), length: false)
        case "trickle": trickle(fd)
        case "flood": flood(fd, chunks: 1024)
        case "huge": flood(fd, chunks: 32768)
        case "redirect-slow", "redirect-fast":
            pause(mode == "redirect-slow" ? 0.3 : 0.05, fd)
            redirect(fd, to: path, answer: leave)
        case "redirect-png":
            redirect(fd, to: "/png/" + path.split(separator: "/").dropFirst().joined(separator: "/"), answer: leave)
        case "redirect-away":
            redirect(
                fd, to: "http://127.0.0.2:\(port)/png/" + path.split(separator: "/").dropFirst().joined(separator: "/"),
                answer: leave)
        default: answer("400 Bad Request", "text/plain", [])
        }
    }

    /// Sleeps up to `seconds`, waking early when the upstream stops or the client hangs up
    /// (so that a request the client gave up on no longer counts as in flight).
    private func pause(_ seconds: Double, _ fd: Int32) {
        var left = seconds
        while left > 0, !stopped.load(ordering: .acquiring) {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, 20) > 0 {
                var byte: UInt8 = 0
                if entry.revents & Int16(POLLHUP | POLLERR) != 0 || recv(fd, &byte, 1, Int32(MSG_PEEK)) <= 0 {
                    return
                }
            }
            left -= 0.02
        }
    }

    /// Headers and the PNG's first bytes, then a byte every 50 ms until the client or the upstream stops.
    private func trickle(_ fd: Int32) {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(png.count)\r\n\r\n".utf8)
        guard sendAll(fd, head + png.prefix(40)) else { return }
        for byte in png.dropFirst(40) {
            pause(0.05, fd)
            guard !stopped.load(ordering: .acquiring), sendAll(fd, [byte]) else { return }
        }
    }

    /// 302 to `location`, with an empty body.
    private func redirect(_ fd: Int32, to location: String, answer leave: () -> Void) {
        leave()
        let head = "HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        _ = sendAll(fd, Array(head.utf8))
    }

    /// 200 with no length and up to `chunks` × 64 KiB of body, counting what the client took.
    private func flood(_ fd: Int32, chunks: Int) {
        guard sendAll(fd, Array("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nConnection: close\r\n\r\n".utf8)) else {
            return
        }
        let chunk = png + [UInt8](repeating: 7, count: (1 << 16) - png.count)
        for _ in 0..<chunks {
            guard !stopped.load(ordering: .acquiring), sendAll(fd, chunk) else { return }
            counts.withLock { $0.floodBytesSent += chunk.count }
        }
    }

    private func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes {
                TestSocket.send(fd, $0.baseAddress.map { $0 + sent }, bytes.count - sent)
            }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    private func respond(_ fd: Int32, status: String, type: String?, body: [UInt8], length: Bool = true) {
        var head = "HTTP/1.1 \(status)\r\nConnection: close\r\n"
        if let type { head += "Content-Type: \(type)\r\n" }
        if !status.hasPrefix("204"), length { head += "Content-Length: \(body.count)\r\n" }
        let bytes = Array((head + "\r\n").utf8) + body
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes {
                TestSocket.send(fd, $0.baseAddress.map { $0 + sent }, bytes.count - sent)
            }
            guard n > 0 else { return }
            sent += n
        }
    }

    private func findHeadEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i + 4
        }
        return nil
    }

    /// A PNG of one colour.
    public static func solidPNG(side: Int, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) throws -> [UInt8] {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(side * side * 4)
        for _ in 0..<(side * side) { pixels += [red, green, blue, alpha] }
        guard let image = RGBAImage(width: side, height: side, pixels: pixels) else {
            throw Failure(description: "image")
        }
        return try PNGEncoder().encode(image)
    }
}

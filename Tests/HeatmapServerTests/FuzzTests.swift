import HeatmapServer
import Testing

/// Seeded fuzzing of the request parser: mutated and random heads never crash it, and every
/// answer is a request or a typed error; over a socket each gets a 4xx or a valid answer and
/// the server lives on.
@Suite struct FuzzTests {
    static let seeds = [
        "GET /police/6/57/39.png HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: image/png\r\n\r\n",
        "HEAD /catalog HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
        "GET /police.json?radius=30&gradient=fire HTTP/1.0\r\nIf-None-Match: \"x\"\r\n\r\n",
        "POST /health HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc",
    ]

    static func mutate(_ seed: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = seed
        let interesting: [UInt8] = [0, 9, 10, 13, 32, 37, 47, 58, 63, 127, 128, 255]
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            guard !bytes.isEmpty else { break }
            let i = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: bytes[i] = UInt8.random(in: 0...255, using: &random)
            case 1: bytes[i] = interesting[Int.random(in: 0..<interesting.count, using: &random)]
            case 2: bytes.remove(at: i)
            case 3: bytes.insert(interesting[Int.random(in: 0..<interesting.count, using: &random)], at: i)
            case 4: bytes.insert(contentsOf: bytes[i..<min(bytes.count, i + 20)], at: i)
            default:
                bytes.insert(
                    contentsOf: repeatElement(UInt8(ascii: "a"), count: Int.random(in: 1...300, using: &random)), at: i)
            }
        }
        return bytes
    }

    @Test func parserSurvivesTwentyThousandMutations() {
        var random = SeededGenerator(state: 20_261_130)
        var limits = HTTPLimits()
        limits.maxRequestLine = 256
        limits.maxHeaderBytes = 512
        limits.maxHeaderCount = 8
        var outcomes = [0, 0, 0]
        for n in 0..<20_000 {
            let seed = Array(Self.seeds[n % Self.seeds.count].utf8)
            let bytes =
                n % 10 == 9
                ? (0..<Int.random(in: 0...400, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                : Self.mutate(seed, &random)
            var parser = HTTPParser(limits: limits)
            do {
                if let parsed = try parser.parse(ArraySlice(bytes)) {
                    #expect(parsed.consumed <= bytes.count)
                    #expect(parsed.request.path.hasPrefix("/"))
                    outcomes[0] += 1
                } else {
                    outcomes[1] += 1
                }
            } catch {
                #expect([400, 414, 431, 505].contains(error.status.code))
                outcomes[2] += 1
            }
        }
        // Both accepted and refused heads occur, so the mutations exercise both paths.
        #expect(outcomes[0] > 100 && outcomes[2] > 100)
    }

    @Test func serverAnswersMutatedRequestsAndLivesOn() throws {
        let server = try TestServer()
        defer { server.stop() }
        var random = SeededGenerator(state: 7)
        for n in 0..<150 {
            let bytes = Self.mutate(Array(Self.seeds[n % Self.seeds.count].utf8), &random)
            let client = try server.client(timeout: 5)
            try client.send(bytes)
            client.shutdownWrite()
            // Whatever came back is a well-formed response (or nothing, for a head never finished).
            if let response = try? client.read() {
                #expect((200...505).contains(response.status))
            }
        }
        #expect(try server.client().get("/health").status == 200)
    }
}

import Foundation
import HeatmapCore
import HeatmapKit
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

    static func mutate(_ seed: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
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
        var random = SplitMix64(seed: 20_261_130)
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

    /// Numbers a query parameter or path part is mutated into: extremes of every kind.
    static let numbers = [
        "4e-45", "1e-45", "1e-300", "4.9e-324", "0x1p-1074", "1e-400", "1e308", "1e309", "3.4e38", "0", "-0", "-1",
        "nan", "inf", "-inf", "0x1f", "1e", "+", "-", ".", "9223372036854775808", "18446744073709551616",
        "000000000000000000000000000001", "5", "10", "20", "50", "0.7", "1",
    ]

    /// A tile request: mostly valid, with its numbers replaced by extremes, overlong digit
    /// strings or random bytes; `valid` when it is the known tile asked plainly.
    static func tileRequest(_ random: inout SplitMix64) -> String {
        func pick(_ values: [String]) -> String { values[Int.random(in: 0..<values.count, using: &random)] }
        func number() -> String {
            switch Int.random(in: 0..<8, using: &random) {
            case 0: return String(repeating: "9", count: Int.random(in: 9...400, using: &random))
            case 1: return "0." + String(repeating: "0", count: Int.random(in: 1...400, using: &random)) + "1"
            case 2: return String(format: "%a", Double(bitPattern: random.next()))
            case 3: return "\(Double(bitPattern: random.next()))"
            case 4: return "\(Float(bitPattern: UInt32(truncatingIfNeeded: random.next())))"
            default: return pick(numbers)
            }
        }
        var z = "6"
        var x = "57"
        var y = "39"
        var scale = pick(["", "", "", "", "", "@2x", "@3x", "@9x", "@0x"])
        switch Int.random(in: 0..<10, using: &random) {
        case 0: z = number()
        case 1: x = number()
        case 2: y = number()
        case 3: (z, x, y) = (pick(["22", "23", "30"]), number(), number())
        case 4: scale = "@" + number() + "x"
        default: break
        }
        var query: [String] = []
        for name in ["max", "radius", "opacity", "gradient"] where Int.random(in: 0..<3, using: &random) == 0 {
            let value =
                name == "gradient"
                ? pick(["fire", "0000ff:\(number()),ff0000:1", "\(number()):1", "ff0000:\(number())"]) : number()
            query.append("\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)")
        }
        return "/police/\(z)/\(x)/\(y)\(scale).png" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    @Test func serverAnswersExtremeNumbersInTilesAndLivesOn() throws {
        let server = try TestServer()
        defer { server.stop() }
        var random = SplitMix64(seed: 15)
        var client = try server.client(timeout: 10)
        let known = try client.get("/police/6/57/39.png").body
        var statuses: [Int: Int] = [:]
        for batch in 0..<8 {
            for _ in 0..<80 {
                let path = Self.tileRequest(&random)
                let response: TestClient.Response
                do {
                    response = try client.get(path)
                } catch {
                    client = try server.client(timeout: 10)
                    response = try client.get(path)
                }
                #expect([200, 204, 400, 404].contains(response.status), "\(path): \(response.status)")
                statuses[response.status, default: 0] += 1
            }
            let check = try server.client(timeout: 10)
            #expect(try check.get("/police/6/57/39.png").body == known, "after batch \(batch)")
        }
        // Both drawn tiles and refusals occur, so the mutations exercise both paths.
        #expect(statuses[200, default: 0] > 30 && statuses[400, default: 0] > 30)
    }

    @Test func serverAnswersMutatedRequestsAndLivesOn() throws {
        let server = try TestServer()
        defer { server.stop() }
        var random = SplitMix64(seed: 7)
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

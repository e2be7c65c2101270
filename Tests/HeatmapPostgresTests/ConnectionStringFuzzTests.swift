import Foundation
import HeatmapTestSupport
import Testing

@testable import HeatmapPostgres

/// Seeded random passwords of the characters that split connection strings (`@ / : ? # & = '
/// " \ % ,` and spaces), written in each form libpq takes, raw and escaped, with libpq as the
/// judge of what they mean: whatever it makes of one (the password, a host, a port, a refusal),
/// no 4 characters of the password appear in what is shown of the string or in the error of a
/// connection to a closed port, nor in `import --shard`'s messages. Bounded: 150 strings a seed
/// in CI, `HEATMAP_FUZZ_ROUNDS` more elsewhere.
@Suite struct ConnectionStringFuzzTests {
    /// The password's letters, none of which libpq's or the server's messages use in a row.
    static let letters = Array("QXZJKVW")
    static let specials = Array("@/:?#&= '\"\\%,$;")

    /// A random password: 6 to 14 characters, half of them the letters.
    static func password(using generator: inout WhereFuzzTests.Generator) -> String {
        let length = Int.random(in: 6...14, using: &generator)
        return String(
            (0..<length).map { index in
                index % 2 == 0
                    ? letters.randomElement(using: &generator) ?? "Q" : specials.randomElement(using: &generator) ?? "@"
            })
    }

    /// The forms a password is written in, for a closed `port`.
    static func forms(_ password: String, port: Int) -> [String] {
        let encoded = ConnectionFormsTests.percentEncoded(password)
        let quoted = password.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
        return [
            "postgresql://qzuser:\(password)@127.0.0.1:\(port)/db",
            "postgresql://qzuser:\(encoded)@127.0.0.1:\(port)/db",
            "postgres://127.0.0.1:\(port)/db?user=qzuser&password=\(password)",
            "postgresql://127.0.0.1:\(port)/db?user=qzuser&pass%77ord=\(encoded)",
            "host=127.0.0.1 port=\(port) user=qzuser password=\(password) dbname=db",
            "host=127.0.0.1 port=\(port) user=qzuser password = '\(quoted)' dbname=db",
            "host=127.0.0.1 port=\(port) password\t=\t'\(quoted)' sslpassword='\(quoted)'",
        ]
    }

    /// The first window of 4 characters of `secret` holding 2 of its letters that `text` holds.
    static func leak(of secret: String, in text: String) -> String? {
        let characters = Array(secret)
        guard characters.count >= 4 else { return nil }
        for start in 0...(characters.count - 4) {
            let window = characters[start..<start + 4]
            guard window.filter({ letters.contains($0) }).count >= 2 else { continue }
            if text.contains(String(window)) { return String(window) }
        }
        return nil
    }

    static var rounds: Int {
        ProcessInfo.processInfo.environment["HEATMAP_FUZZ_ROUNDS"].flatMap { Int($0) } ?? 150
    }

    @Test(
        "random passwords in every form: nothing of them in what is shown or in a failed connection", arguments: [1, 2])
    func library(seed: UInt64) {
        var generator = WhereFuzzTests.Generator(state: seed)
        let port = LoopbackPort.free()
        var faithful = 0
        var misread = 0
        for _ in 0..<Self.rounds {
            let password = Self.password(using: &generator)
            for text in Self.forms(password, port: port) {
                let conninfo = ConnectionString(text)
                // libpq's reading: the password as meant, or something else.
                if conninfo.secrets.contains(password) { faithful += 1 } else { misread += 1 }
                #expect(Self.leak(of: password, in: conninfo.description) == nil, "\(text): \(conninfo.description)")
                do {
                    _ = try PostgresConnection(conninfo)
                    Issue.record("\(text) connected to a closed port")
                } catch {
                    #expect(Self.leak(of: password, in: error.description) == nil, "\(text): \(error.description)")
                    #expect(error.description.hasPrefix("could not connect to PostgreSQL ("), "\(error.description)")
                }
            }
        }
        #expect(faithful > 0 && misread > 0, "faithful \(faithful), misread \(misread)")
    }

    @Test("random passwords given to import --shard: nothing of them in its messages", .needsPostgres)
    func shards() throws {
        let cluster = try TestCluster.require()
        let data = try HeatmapCommand.csv(LiveDataTests.points)
        defer { try? FileManager.default.removeItem(atPath: data) }
        var generator = WhereFuzzTests.Generator(state: 7)
        let port = LoopbackPort.free()
        for _ in 0..<max(2, Self.rounds / 50) {
            let password = Self.password(using: &generator)
            for shard in Self.forms(password, port: port) {
                let run = try HeatmapCommand.run([
                    "import", data, "--postgres", cluster.url, "--table", "fuzz_sharded", "--shard", shard,
                ])
                #expect(run.status == 1, "\(shard): \(run.standardError)")
                for text in [run.standardOutput, run.standardError] {
                    #expect(Self.leak(of: password, in: text) == nil, "\(shard): \(text)")
                }
            }
        }
    }

    @Test(
        "random passwords in a by-hand shard's user mapping: import --attach names the shard, nothing of them",
        .needsPostgres)
    func attach() throws {
        let cluster = try TestCluster.require()
        let admin = try PostgresConnection(cluster.conninfo)
        var generator = WhereFuzzTests.Generator(state: 11)
        let port = LoopbackPort.free()
        try TestCluster.createExtension("postgres_fdw", on: admin)
        for round in 0..<max(2, Self.rounds / 50) {
            let password = Self.password(using: &generator)
            let literal = "'" + password.replacing("'", with: "''") + "'"
            try admin.execute("DROP TABLE IF EXISTS fuzz_attach")
            try admin.execute("DROP SERVER IF EXISTS fuzz_attach_server CASCADE")
            try admin.execute(
                "CREATE SERVER fuzz_attach_server FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '127.0.0.1', "
                    + "port '\(port)', dbname 'db')")
            try admin.execute(
                "CREATE USER MAPPING FOR CURRENT_USER SERVER fuzz_attach_server OPTIONS (user 'qzuser', password \(literal))"
            )
            try admin.execute(
                "CREATE TABLE fuzz_attach (lat float8, lng float8, weight real, x int8, y int8, key int8) "
                    + "PARTITION BY RANGE ((key >> 56))")
            try admin.execute(
                "CREATE FOREIGN TABLE fuzz_attach_1 PARTITION OF fuzz_attach FOR VALUES FROM (MINVALUE) TO (MAXVALUE) "
                    + "SERVER fuzz_attach_server")
            let run = try HeatmapCommand.run([
                "import", "--postgres", cluster.url, "--table", "fuzz_attach", "--attach",
            ])
            #expect(run.status == 1, "round \(round): \(run.standardError)")
            #expect(run.standardError.contains("port=\(port)"), "the shard is named: \(run.standardError)")
            for text in [run.standardOutput, run.standardError] {
                #expect(Self.leak(of: password, in: text) == nil, "\(password): \(text)")
            }
        }
        try admin.execute("DROP TABLE IF EXISTS fuzz_attach")
        try admin.execute("DROP SERVER IF EXISTS fuzz_attach_server CASCADE")
    }
}

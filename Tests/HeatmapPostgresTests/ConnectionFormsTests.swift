import Foundation
import HeatmapTestSupport
import Testing

@testable import HeatmapPostgres

/// Every form libpq accepts a password in, against a live server: libpq reads each as meant
/// (the right password connects), and no message of the library, of any command or of the
/// server's log and pages holds a piece of the password (4 characters in a row), wrong or right.
@Suite(.serialized, .needsPostgres) struct ConnectionFormsTests {
    /// One way of writing a connection: its text for a user, password and port.
    struct Form: Sendable, CustomStringConvertible {
        var description: String
        /// The password this form carries (a role of the cluster gets it).
        var password: String
        /// Environment the command needs (a service file's path).
        var environment: [String: String] = [:]
        /// Whether libpq reads it as meant (a form refused before libpq never connects).
        var connects = true
        /// Texts of the form for `(user, password, port)`.
        var text: @Sendable (String, String, Int) -> String
    }

    /// The forms: URLs whose password holds `?`, a space, a `/` (refused: libpq would misread
    /// it), a percent-encoded `pass%77ord` key, `password<TAB>=` words, quoted values with
    /// escapes, `sslpassword`, a passfile, a service file and several hosts.
    static func forms(folder: String) throws -> [Form] {
        let passfile = folder + "/pgpass"
        let servicefile = folder + "/pg_service.conf"
        var forms: [Form] = [
            Form(description: "URL, '?' in the password", password: "hunt?er2#QzW7") { u, p, port in
                "postgresql://\(u):\(p)@127.0.0.1:\(port)/postgres"
            },
            Form(description: "URL, a space in the password", password: "hunt er2 QzW7") { u, p, port in
                "postgresql://\(u):\(p)@127.0.0.1:\(port)/postgres"
            },
            Form(description: "URL, '/' in the password", password: "hu/nt2QzW7", connects: false) { u, p, port in
                "postgresql://\(u):\(p)@127.0.0.1:\(port)/postgres"
            },
            Form(description: "URL, percent-encoded key pass%77ord", password: "QzW7:hunt&er2") { u, p, port in
                "postgresql://\(u)@127.0.0.1:\(port)/postgres?pass%77ord=" + Self.percentEncoded(p)
            },
            Form(description: "words, password<TAB>=", password: "QzW7hunter2") { u, p, port in
                "host=127.0.0.1 port=\(port) user=\(u) dbname=postgres password\t=\t\(p)"
            },
            Form(description: "words, a quoted value with escapes", password: "it's a QzW7\\ secret") { u, p, port in
                let quoted = p.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
                return "host=127.0.0.1 port = \(port) user='\(u)' password = '\(quoted)' dbname=postgres"
            },
            Form(description: "URL with an sslpassword", password: "QzW7sslpw") { u, p, port in
                "postgresql://\(u):\(p)@127.0.0.1:\(port)/postgres?sslpassword=SslQz88Pass&sslmode=disable"
            },
            Form(description: "passfile", password: "QzW7:pX\\fk9") { u, _, port in
                "host=127.0.0.1 port=\(port) user=\(u) dbname=postgres passfile=\(passfile)"
            },
            Form(description: "several hosts", password: "QzW7multi") { u, p, port in
                "postgresql://\(u):\(p)@127.0.0.1:\(LoopbackPort.free()),127.0.0.1:\(port)/postgres"
            },
        ]
        forms.append(
            Form(
                description: "service file", password: "QzW7sVc9k", environment: ["PGSERVICEFILE": servicefile]
            ) { _, _, _ in "service=heatmap_forms" })
        return forms
    }

    /// `text` percent-encoded but for letters and digits.
    static func percentEncoded(_ text: String) -> String {
        text.utf8.map { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
    }

    /// The first 4 characters in a row of `secret` that `text` holds and `ordinary` (the same
    /// output made without the secret: `count ` of the metrics for `hunt er2`) does not, or `nil`.
    static func leak(of secret: String, in text: String, ordinary: String = "") -> String? {
        let characters = Array(secret)
        guard characters.count >= 4 else { return text.contains(secret) ? secret : nil }
        for start in 0...(characters.count - 4) {
            let window = String(characters[start..<start + 4])
            if text.contains(window) && !ordinary.contains(window) { return window }
        }
        return nil
    }

    /// Writes the passfile and service file of `forms` for `user` on `port` (the passfile's and
    /// the service's entries hold `password`, escaped as libpq reads them).
    static func writeFiles(folder: String, user: String, port: Int, passfilePassword: String, servicePassword: String)
        throws
    {
        let escaped = passfilePassword.replacing("\\", with: "\\\\").replacing(":", with: "\\:")
        try "127.0.0.1:\(port):postgres:\(user):\(escaped)\n".write(
            toFile: folder + "/pgpass", atomically: true, encoding: .utf8)
        chmod(folder + "/pgpass", 0o600)
        try """
        [heatmap_forms]
        host=127.0.0.1
        port=\(port)
        dbname=postgres
        user=\(user)
        password=\(servicePassword)

        """.write(toFile: folder + "/pg_service.conf", atomically: true, encoding: .utf8)
    }

    @Test("each form: libpq reads it as meant, and neither a wrong password nor a closed port shows a piece of it")
    func library() throws {
        let cluster = try TestCluster.require()
        let folder = try TemporaryFolder("pg-forms")
        defer { folder.remove() }
        let admin = try PostgresConnection(cluster.conninfo)
        for (index, form) in try Self.forms(folder: folder.path).enumerated() {
            let user = "forms_\(index)"
            let wrong = "Wr0ng" + form.password.dropFirst(2)
            try admin.execute("DROP ROLE IF EXISTS \(user)")
            try admin.execute("CREATE ROLE \(user) LOGIN PASSWORD '\(form.password.replacing("'", with: "''"))'")
            for (password, port, answer) in [
                (form.password, cluster.port, "connects"), (wrong, cluster.port, "password authentication failed"),
                (form.password, LoopbackPort.free(), "failed"),
            ] {
                try Self.writeFiles(
                    folder: folder.path, user: user, port: port, passfilePassword: password, servicePassword: password)
                let text = ConnectionString(form.text(user, password, port))
                #expect(Self.leak(of: password, in: text.description) == nil, "\(form): \(text.description)")
                guard form.environment.isEmpty else { continue }  // libpq reads it from the environment
                do {
                    let connection = try PostgresConnection(text)
                    #expect(form.connects && answer == "connects", "\(form) connected with \(password)")
                    #expect(try connection.execute("SELECT current_user").text(0, 0) == user, "\(form)")
                    #expect(Self.leak(of: password, in: connection.target) == nil, "\(form): \(connection.target)")
                } catch {
                    let message = error.description
                    #expect(Self.leak(of: password, in: message) == nil, "\(form): \(message)")
                    #expect(Self.leak(of: "SslQz88Pass", in: message) == nil, "\(form): \(message)")
                    if form.connects {
                        #expect(message.contains(answer) && answer != "connects", "\(form): \(message)")
                        #expect(message.contains("user=\(user)"), "the user is named: \(form): \(message)")
                    } else {
                        #expect(message.contains("%2F"), "\(form): \(message)")
                    }
                }
            }
        }
    }

    @Test("a one-letter password leaves libpq's message readable: port 5xxxx, not ***ort")
    func shortPassword() throws {
        let port = LoopbackPort.free()
        do {
            _ = try PostgresConnection(ConnectionString("postgresql://postgres:p@127.0.0.1:\(port)/postgres"))
            Issue.record("connected to a closed port")
        } catch {
            #expect(error.description.contains("port \(port) failed"), "\(error.description)")
            #expect(!error.description.contains("***ort"), "\(error.description)")
        }
        #expect("password p for user p, port 1".scrubbing(["p"]) == "password *** for user ***, port 1")
    }

    @Test(
        "strings libpq cannot read are named without a piece of them",
        arguments: [
            "password=QzabW Qzcd7 host=127.0.0.1", "postgresql://u:QzW7%zzSecret@127.0.0.1/db",
            "postgresql://u:QzW7pw@[::1/db", "host=127.0.0.1 password='QzW7unclosed",
        ])
    func unreadable(text: String) throws {
        let secret = text.contains("Qzcd7") ? "Qzcd7" : text.contains("%zz") ? "QzW7%zzSecret" : "QzW7"
        let shown = ConnectionString(text).description
        #expect(shown == "a connection string libpq cannot read", "\(shown)")
        do {
            _ = try PostgresConnection(ConnectionString(text))
            Issue.record("\(text) connected")
        } catch {
            #expect(Self.leak(of: secret, in: error.description) == nil, "\(error.description)")
            #expect(error.description.contains("libpq cannot read the connection string"), "\(error.description)")
        }
    }

    @Test("info, tile, render and import print no piece of the password, in any form, wrong or to a closed port")
    func commands() throws {
        let cluster = try TestCluster.require()
        let folder = try TemporaryFolder("pg-forms-commands")
        defer { folder.remove() }
        let admin = try PostgresConnection(cluster.conninfo)
        let data = try HeatmapCommand.csv(LiveDataTests.points)
        defer { try? FileManager.default.removeItem(atPath: data) }
        let output = folder.path + "/out.mbtiles"
        for (index, form) in try Self.forms(folder: folder.path).enumerated() {
            let user = "forms_cmd_\(index)"
            try admin.execute("DROP ROLE IF EXISTS \(user)")
            try admin.execute("CREATE ROLE \(user) LOGIN PASSWORD 'right-Pa55'")
            for port in [cluster.port, LoopbackPort.free()] {
                try Self.writeFiles(
                    folder: folder.path, user: user, port: port, passfilePassword: form.password,
                    servicePassword: form.password)
                let url = form.text(user, form.password, port)
                let runs: [[String]] = [
                    ["info", "--postgres", url, "--table", "t"],
                    ["tile", "--postgres", url, "--table", "t", "3/1/2", "--output", folder.path + "/t.png"],
                    ["render", "--postgres", url, "--table", "t", "--zoom", "0-1", "--output", output],
                    ["import", data, "--postgres", url, "--table", "t"],
                    ["import", data, "--postgres", cluster.url, "--table", "t_sharded", "--shard", url],
                    ["serve", "--postgres", url, "--table", "t"],
                ]
                for arguments in runs {
                    let run = try HeatmapCommand.run(arguments, environment: form.environment)
                    #expect(run.status == 1, "\(form) \(arguments[0]): \(run.standardError)")
                    #expect(run.standardError.contains("heatmap: "), "\(form): \(run.standardError)")
                    for text in [run.standardOutput, run.standardError] {
                        #expect(Self.leak(of: form.password, in: text) == nil, "\(form) \(arguments[0]): \(text)")
                        #expect(Self.leak(of: "SslQz88Pass", in: text) == nil, "\(form) \(arguments[0]): \(text)")
                    }
                }
            }
        }
    }

    @Test("connected: info (text, --json), tile, render, import and serve's banner, log and pages show none of it")
    func commandsThatConnect() async throws {
        let cluster = try TestCluster.require()
        let folder = try TemporaryFolder("pg-forms-connect")
        defer { folder.remove() }
        let admin = try PostgresConnection(cluster.conninfo)
        _ = try PostgresImport.run(
            points: LiveDataTests.points, into: "forms_ok", connection: cluster.conninfo, mode: .replace)
        let data = try HeatmapCommand.csv(LiveDataTests.points)
        defer { try? FileManager.default.removeItem(atPath: data) }
        /// What the commands and the server print and answer through `url` (`name` goes into the
        /// output's file name, which render prints: not the form's description, which holds `sslp`).
        func outputs(_ url: String, environment: [String: String], name: String) async throws -> [String] {
            let runs: [[String]] = [
                ["info", "--postgres", url, "--table", "forms_ok"],
                ["info", "--postgres", url, "--table", "forms_ok", "--json"],
                ["tile", "--postgres", url, "--table", "forms_ok", "7/115/78", "--output", folder.path + "/t.png"],
                [
                    "render", "--postgres", url, "--table", "forms_ok", "--zoom", "0-2", "--output",
                    folder.path + "/out-\(name).mbtiles",
                ],
                ["import", data, "--postgres", url, "--table", "forms_ok", "--append"],
            ]
            var texts: [String] = []
            for arguments in runs {
                let run = try HeatmapCommand.run(arguments, environment: environment)
                #expect(run.status == 0, "\(name) \(arguments[0]): \(run.standardError)")
                texts += [run.standardOutput, run.standardError]
            }
            let server = try ServeProcess(["--postgres", url, "--table", "forms_ok"], environment: environment)
            for path in ["/forms_ok/7/115/78.png", "/forms_ok.json", "/", "/metrics", "/catalog", "/health"] {
                let answer = try await LoopbackHTTP.get(server.base + path)
                #expect(answer.status == 200, "\(name) \(path)")
                texts.append(String(decoding: answer.body, as: UTF8.self))
            }
            texts.append(server.stop())
            return texts
        }
        let ordinary = try await outputs(cluster.url, environment: [:], name: "admin").joined(separator: "\n")
        for (index, form) in try Self.forms(folder: folder.path).enumerated() where form.connects {
            let user = "forms_ok_\(index)"
            try admin.execute("DROP ROLE IF EXISTS \(user)")
            try admin.execute(
                "CREATE ROLE \(user) LOGIN SUPERUSER PASSWORD '\(form.password.replacing("'", with: "''"))'")
            try Self.writeFiles(
                folder: folder.path, user: user, port: cluster.port, passfilePassword: form.password,
                servicePassword: form.password)
            let url = form.text(user, form.password, cluster.port)
            for text in try await outputs(url, environment: form.environment, name: "form-\(index)") {
                #expect(Self.leak(of: form.password, in: text, ordinary: ordinary) == nil, "\(form): \(text)")
                #expect(Self.leak(of: "SslQz88Pass", in: text, ordinary: ordinary) == nil, "\(form): \(text)")
            }
        }
    }

    @Test("serve's log and pages during an outage show no piece of the password, in the words form with a tab")
    func serveOutage() async throws {
        let cluster = try TestCluster()
        defer { cluster.stop() }
        let admin = try PostgresConnection(cluster.conninfo)
        let password = "QzW7 it's\\ Vq8"
        try admin.execute("CREATE ROLE outage LOGIN SUPERUSER PASSWORD '\(password.replacing("'", with: "''"))'")
        _ = try PostgresImport.run(
            points: LiveDataTests.points, into: "outage", connection: cluster.conninfo, mode: .replace)
        let quoted = password.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
        let words = "host=127.0.0.1 port=\(cluster.port) user=outage dbname=postgres password\t= '\(quoted)'"
        let server = try ServeProcess(["--postgres", words, "--table", "outage"])
        var bodies: [String] = []
        bodies.append(
            String(decoding: try await LoopbackHTTP.get(server.base + "/outage/7/115/78.png").body, as: UTF8.self))
        try cluster.stopServer()
        for path in [
            "/outage/6/57/39.png", "/outage/5/28/19.png", "/outage/legend.json?z=5", "/outage.json", "/", "/metrics",
            "/catalog", "/health",
        ] {
            bodies.append(String(decoding: try await LoopbackHTTP.get(server.base + path).body, as: UTF8.self))
        }
        try cluster.start()
        let log = server.stop()
        #expect(log.contains("could not connect") || log.contains("connection"), "the outage is logged: \(log)")
        for text in bodies + [log] {
            #expect(Self.leak(of: password, in: text) == nil, "\(text)")
        }
    }
}

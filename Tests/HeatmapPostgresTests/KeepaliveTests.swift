import Foundation
import Testing

@testable import HeatmapPostgres

/// TCP keepalives on every connection, unless the user's connection string sets them.
@Suite(.serialized) struct KeepaliveTests {
    @Test("a live connection uses keepalives 1, idle 30 s, interval 10 s, count 3 by default", .needsPostgres)
    func defaults() throws {
        let cluster = try TestCluster.require()
        let connection = try PostgresConnection(cluster.conninfo)
        let options = connection.liveOptions
        #expect(options["keepalives"] == "1")
        #expect(options["keepalives_idle"] == "30")
        #expect(options["keepalives_interval"] == "10")
        #expect(options["keepalives_count"] == "3")
        // The connection string's own parts still hold, and the password is never reported.
        #expect(options["port"] == "\(cluster.port)")
        #expect(options["password"] == nil)
        #expect(!options.values.contains(TestCluster.password))
        #expect(try connection.execute("SELECT 1").text(0, 0) == "1")
    }

    @Test("the user's keepalive settings win, in a URL and in key=value words", .needsPostgres)
    func userWins() throws {
        let cluster = try TestCluster.require()
        let url = ConnectionString(cluster.url + "?keepalives_idle=45&keepalives_count=7")
        let fromURL = try PostgresConnection(url).liveOptions
        #expect(fromURL["keepalives_idle"] == "45")
        #expect(fromURL["keepalives_count"] == "7")
        #expect(fromURL["keepalives_interval"] == "10")
        #expect(fromURL["keepalives"] == "1")
        let words = ConnectionString(
            "host=127.0.0.1 port=\(cluster.port) user=postgres password=\(TestCluster.password) dbname=postgres "
                + "keepalives=0")
        let fromWords = try PostgresConnection(words).liveOptions
        #expect(fromWords["keepalives"] == "0")
        #expect(fromWords["keepalives_idle"] == "30")
    }

    @Test("the parameters given to libpq put the defaults first and the user's string last")
    func parameters() {
        let parameters = ConnectionString("host=h keepalives_interval=2").connectParameters
        #expect(parameters.last?.keyword == "dbname")
        #expect(parameters.last?.value == "host=h keepalives_interval=2")
        #expect(!parameters.dropLast().contains { $0.keyword == "keepalives_interval" })
        #expect(parameters.contains { $0.keyword == "keepalives_idle" && $0.value == "30" })
    }
}

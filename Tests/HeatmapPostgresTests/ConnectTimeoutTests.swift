import Foundation
import HeatmapTestSupport
import Synchronization
import Testing

@testable import HeatmapPostgres

/// Opening a connection gives up after `connect_timeout` (10 s unless the string says), so a
/// server that accepts and never answers fails the caller instead of holding it forever.
@Suite(.serialized) struct ConnectTimeoutTests {
    /// A loopback listener that accepts connections (the kernel does) and never answers.
    final class SilentListener: Sendable {
        let descriptor: Int32
        let port: Int

        init() throws {
            let fd = TestSocket.tcp()
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            let bound = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            try #require(fd >= 0 && bound == 0 && listen(fd, 16) == 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            descriptor = fd
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(descriptor) }
    }

    @Test("connect_timeout 10 is given to libpq unless the string or PGCONNECT_TIMEOUT sets it", .needsPostgres)
    func parameters() throws {
        let parameters = ConnectionString("host=h").connectParameters
        if getenv("PGCONNECT_TIMEOUT") == nil {
            #expect(parameters.contains { $0.keyword == "connect_timeout" && $0.value == "10" })
        }
        let given = ConnectionString("host=h connect_timeout=3").connectParameters
        #expect(!given.dropLast().contains { $0.keyword == "connect_timeout" })
        let cluster = try TestCluster.require()
        #expect(try PostgresConnection(cluster.conninfo).liveOptions["connect_timeout"] == "10")
    }

    @Test(
        "a server that accepts and never answers fails the connection after the default 10 s, naming the place, no password"
    )
    func silentServer() throws {
        let listener = try SilentListener()
        let url = ConnectionString("postgresql://someone:n0t-shown@127.0.0.1:\(listener.port)/db")
        #expect {
            _ = try PostgresSource(connection: url, table: PostgresTable(name: "t"))
        } throws: { error in
            let text = "\(error)"
            return text.contains("could not connect to PostgreSQL") && text.contains("\(listener.port)")
                && text.contains("timeout") && !text.contains("n0t-shown")
        }
    }
}

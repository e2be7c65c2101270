import Foundation
import Testing

@testable import HeatmapPostgres

/// Passwords that libpq would split: nothing of them may reach a message.
@Suite struct ConnectionSecretTests {
    @Test("a URL whose password holds a raw '@' is refused before libpq, which would print its tail as a host name")
    func atInPassword() throws {
        for url in [
            "postgresql://me:hunter@2-S3cret@127.0.0.1:1/db", "postgres://me:a@b@2-S3cret@127.0.0.1:1",
            "postgresql://me:hunter@2-S3cret@127.0.0.1:1?sslmode=disable",
        ] {
            #expect(!ConnectionString(url).description.contains("S3cret"), "\(url)")
            do {
                _ = try PostgresConnection(ConnectionString(url))
                Issue.record("connected with \(url)")
            } catch {
                #expect(!error.description.contains("S3cret"), "\(error.description)")
                #expect(error.description.contains("%40"), "\(error.description)")
            }
        }
        // An escaped '@' is the password's own, and a user without a password is fine.
        for url in ["postgresql://me:hunter%402-S3cret@127.0.0.1:1/db", "postgresql://me@127.0.0.1:1/db"] {
            do {
                _ = try PostgresConnection(ConnectionString(url))
                Issue.record("connected to a closed port")
            } catch {
                #expect(!error.description.contains("S3cret"), "\(error.description)")
                #expect(!error.description.contains("%40"), "\(error.description)")
                #expect(error.isUnavailable, "\(error.description)")
            }
        }
    }
}

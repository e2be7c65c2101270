import Foundation
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// A server's poll of a sharded table gathers the shards' own rows with `heatmap_gather(T)`,
/// not `DELETE FROM T WHERE false`: `EXECUTE` on the function is all it needs.
extension ShardingTests {
    /// The statements on `table` a trigger saw (`TG_OP`), in order.
    static func statements(on table: String, _ connection: PostgresConnection) throws -> [String] {
        let seen = try connection.execute("SELECT op FROM \(table)_ops ORDER BY n")
        return (0..<seen.rowCount).compactMap { seen.text($0, 0) }
    }

    @Test("rows written on a shard are gathered by heatmap_gather (EXECUTE only, no DELETE); old tables as before")
    func gatherCall() throws {
        let cluster = try Self.require()
        let table = "gather_call"
        try cluster.build(table: table, points: Self.points)
        _ = try PostgresAttach.run(table: table, connection: cluster.coordinator.conninfo)
        let connection = try PostgresConnection(cluster.coordinator.conninfo)
        // Which statements reach the table: a statement trigger of the test's own.
        for statement in [
            "DROP TABLE IF EXISTS \(table)_ops",
            "CREATE TABLE \(table)_ops (n serial, op text)",
            """
            CREATE OR REPLACE FUNCTION \(table)_op() RETURNS trigger LANGUAGE plpgsql AS $f$
            BEGIN INSERT INTO \(table)_ops (op) VALUES (TG_OP); RETURN NULL; END $f$
            """,
            "CREATE TRIGGER \(table)_seen AFTER DELETE ON \(table) FOR EACH STATEMENT EXECUTE FUNCTION \(table)_op()",
        ] {
            try connection.execute(statement)
        }
        let source = try PostgresSource(connection: cluster.coordinator.conninfo, table: PostgresTable(name: table))
        let start = try #require(try source.changeCount())
        #expect(try source.gatherShardChanges() == false, "nothing written on a shard yet")
        #expect(try source.changeCount() == start)
        let direct = try Self.shardInsert(
            table, latitude: -31.95, longitude: 115.86, weight: 4, coordinator: connection)
        try PostgresConnection(cluster.shards[direct.shard].conninfo).execute(direct.sql)
        #expect(try source.gatherShardChanges() == true)
        #expect(try source.changeCount() == start + 1)
        let gathered = try #require(try source.changes(after: start, through: start + 1))
        #expect(gathered.added.count == 1 && gathered.removed.isEmpty, "the shard row's cell")
        #expect(try Self.statements(on: table, connection).isEmpty, "no DELETE ran on the table")
        #expect(try source.gatherShardChanges() == false, "gathered once")

        // A role granted EXECUTE alone gathers; without the grant it is refused (the old way's
        // DELETE is refused to it too).
        try connection.execute("DROP ROLE IF EXISTS \(table)_poller")
        try connection.execute("CREATE ROLE \(table)_poller NOLOGIN")
        defer { _ = try? connection.execute("RESET ROLE") }
        let second = try Self.shardInsert(table, latitude: -31.9, longitude: 115.8, weight: 2, coordinator: connection)
        try PostgresConnection(cluster.shards[second.shard].conninfo).execute(second.sql)
        try connection.execute("SET ROLE \(table)_poller")
        #expect(throws: PostgresError.self) { try connection.execute("SELECT heatmap_gather('\(table)'::regclass)") }
        #expect(throws: PostgresError.self) { try connection.execute("DELETE FROM \(table) WHERE false") }
        try connection.execute("RESET ROLE")
        try connection.execute("GRANT EXECUTE ON FUNCTION heatmap_gather(regclass) TO \(table)_poller")
        try connection.execute("SET ROLE \(table)_poller")
        #expect(try connection.execute("SELECT heatmap_gather('\(table)'::regclass)").text(0, 0) == "t")
        try connection.execute("RESET ROLE")
        #expect(try source.changeCount() == start + 2)

        // The grant survives a second attach (the function is replaced, not revoked again).
        _ = try PostgresAttach.run(table: table, connection: cluster.coordinator.conninfo)
        let granted = try connection.execute(
            "SELECT has_function_privilege('\(table)_poller', 'heatmap_gather(regclass)', 'EXECUTE')")
        #expect(granted.text(0, 0) == "t")

        // A coordinator without the function (tables imported before it): the DELETE, as before.
        try connection.execute("DROP FUNCTION heatmap_gather(regclass)")
        let before = try #require(try source.changeCount())
        let third = try Self.shardInsert(table, latitude: -31.8, longitude: 115.9, weight: 1, coordinator: connection)
        try PostgresConnection(cluster.shards[third.shard].conninfo).execute(third.sql)
        #expect(try source.gatherShardChanges() == true)
        #expect(try source.changeCount() == before + 1)
        #expect(try Self.statements(on: table, connection) == ["DELETE"])
        try connection.execute("DROP ROLE IF EXISTS \(table)_poller")
    }
}

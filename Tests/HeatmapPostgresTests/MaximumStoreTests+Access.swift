import Foundation
import HeatmapKit
import Testing

@testable import HeatmapPostgres

/// Who may use `heatmap_maxima`: a user with SELECT only, a table imported before the store
/// existed (made on first use by a user who may), a sharded table.
extension MaximumStoreTests {
    static let readerPassword = "r3ader-Pa55"

    /// The connection string of `user` (with the reader's password) to `database`.
    static func conninfo(_ cluster: TestCluster, user: String = "postgres", database: String = "postgres")
        -> ConnectionString
    {
        let password = user == "postgres" ? TestCluster.password : readerPassword
        return ConnectionString("postgresql://\(user):\(password)@127.0.0.1:\(cluster.port)/\(database)")
    }

    /// A role that may log in and read every table of `database`'s public schema, nothing more.
    static func makeReader(_ name: String, database: String, cluster: TestCluster) throws {
        let connection = try PostgresConnection(conninfo(cluster, database: database))
        try connection.execute(
            """
            DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '\(name)') THEN \
            CREATE ROLE \(name) LOGIN PASSWORD '\(readerPassword)'; END IF; END $$
            """)
        try connection.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(name)")
    }

    @Test("a user with SELECT only takes the values kept and searches the others, keeping nothing, in one notice")
    func readOnlyUser() throws {
        let cluster = try TestCluster.require()
        let table = "stored_readonly"
        _ = try PostgresImport.run(
            points: ClusteredPoints.points(seed: 13), into: table, connection: cluster.conninfo, mode: .replace)
        let connection = try PostgresConnection(cluster.conninfo)
        let owner = try PostgresSource(connection: cluster.conninfo, table: PostgresTable(name: table))
        let count = try #require(try owner.changeCount())
        let kept = Array(Self.slots.prefix(2))
        let found = try Self.maxima(owner.pinned(toChangeCount: count), kept)
        try Self.makeReader("mz_reader", database: "postgres", cluster: cluster)
        let reader = try PostgresSource(
            connection: Self.conninfo(cluster, user: "mz_reader"), table: PostgresTable(name: table))
        let notices = Notices()
        notices.listen(to: reader)
        let all = try Self.maxima(reader.pinned(toChangeCount: count))
        #expect(Array(all.prefix(2)) == found, "the kept values")
        #expect(Self.close(all, try Self.memory(table, on: connection)), "\(all) against memory")
        #expect(Self.reused(reader) == 2 && Self.searches(reader) == 1, "only the one not kept is searched")
        #expect(try Self.storedRows(table, on: connection) == 2, "the reader kept nothing")
        #expect(notices.all.count == 1 && notices.all[0].contains("may not write it"), "\(notices.all)")
        _ = try Self.maxima(reader.pinned(toChangeCount: count))
        #expect(notices.all.count == 1, "said once")
    }

    @Test("a table imported before heatmap_maxima: a reader goes on without it, one notice; its owner makes it")
    func olderTable() throws {
        let cluster = try TestCluster.require()
        let database = "mz_older"
        let admin = try PostgresConnection(cluster.conninfo)
        let exists = try admin.execute("SELECT count(*) FROM pg_database WHERE datname = $1", [database])
        if exists.text(0, 0) == "0" { try admin.execute("CREATE DATABASE \(database)") }
        let owner = Self.conninfo(cluster, database: database)
        let table = "older"
        _ = try PostgresImport.run(
            points: ClusteredPoints.points(seed: 14), into: table, connection: owner, mode: .replace)
        let connection = try PostgresConnection(owner)
        // As an import before the store made it.
        try connection.execute("DROP TABLE heatmap_maxima")
        try Self.makeReader("mz_older_reader", database: database, cluster: cluster)
        let slots = Array(Self.slots.prefix(2))
        let memory = try Self.memory(table, on: connection, slots)
        let reader = try PostgresSource(
            connection: Self.conninfo(cluster, user: "mz_older_reader", database: database),
            table: PostgresTable(name: table))
        let notices = Notices()
        notices.listen(to: reader)
        #expect(Self.close(try Self.maxima(reader, slots), memory))
        #expect(Self.searches(reader) == slots.count)
        #expect(
            notices.all.count == 1 && notices.all[0].contains("heatmap_maxima is missing and this user cannot make it"),
            "\(notices.all)")
        let missing = try connection.execute("SELECT to_regclass('heatmap_maxima') IS NULL")
        #expect(missing.text(0, 0) == "t", "the reader made nothing")
        let source = try PostgresSource(connection: owner, table: PostgresTable(name: table))
        let ownerNotices = Notices()
        ownerNotices.listen(to: source)
        let count = try #require(try source.changeCount())
        #expect(Self.close(try Self.maxima(source.pinned(toChangeCount: count), slots), memory))
        #expect(ownerNotices.all.isEmpty, "\(ownerNotices.all)")
        #expect(try Self.storedRows(table, on: connection, version: count) == slots.count, "made and kept")
        // The reader had given up on the table for its life; a new one (another process) reads it.
        try connection.execute("GRANT SELECT ON heatmap_maxima TO mz_older_reader")
        let later = try PostgresSource(
            connection: Self.conninfo(cluster, user: "mz_older_reader", database: database),
            table: PostgresTable(name: table))
        later.onMaximumStoreNotice { _ in }
        #expect(Self.close(try Self.maxima(later, slots), memory) && Self.searches(later) == 0)
    }

    @Test("a sharded table keeps M(z) on the coordinator; rows written on a shard and not gathered are never mixed")
    func sharded() throws {
        let cluster = try ShardingTests.require()
        let table = "stored_byhand"
        try cluster.build(table: table, points: ShardingTests.points)
        _ = try PostgresAttach.run(table: table, connection: cluster.coordinator.conninfo)
        let coordinator = try PostgresConnection(cluster.coordinator.conninfo)
        let made = try coordinator.execute("SELECT to_regclass('heatmap_maxima') IS NOT NULL")
        #expect(made.text(0, 0) == "t", "on the coordinator")
        let slots = [MaximumSlotKey(zoom: 3, scale: 1, reach: 20), MaximumSlotKey(zoom: 8, scale: 2, reach: 40)]
        let first = try PostgresSource(connection: cluster.coordinator.conninfo, table: PostgresTable(name: table))
        let count = try #require(try first.changeCount())
        let found = try Self.maxima(first.pinned(toChangeCount: count), slots)
        #expect(Self.close(found, try Self.memory(table, on: coordinator, slots)), "\(found) against memory")
        let second = try PostgresSource(connection: cluster.coordinator.conninfo, table: PostgresTable(name: table))
        #expect(try Self.maxima(second.pinned(toChangeCount: count), slots) == found)
        #expect(Self.searches(second) == 0, "kept on the coordinator")
        // A heavy row written on a shard itself: the coordinator's count has not moved.
        let direct = try ShardingTests.shardInsert(
            table, latitude: -23.55, longitude: -46.63, weight: 500, coordinator: coordinator)
        try PostgresConnection(cluster.shards[direct.shard].conninfo).execute(direct.sql)
        #expect(try first.changeCount() == count)
        let third = try PostgresSource(connection: cluster.coordinator.conninfo, table: PostgresTable(name: table))
        let fresh = try Self.maxima(third, slots)
        #expect(Self.searches(third) == slots.count, "not the value kept for rows that changed")
        #expect(Self.close(fresh, try Self.memory(table, on: coordinator, slots)), "\(fresh) with the shard's row")
        #expect(try Self.storedRows(table, on: coordinator, version: count) == slots.count, "nothing kept for it")
        #expect(try first.gatherShardChanges())
        let next = try #require(try first.changeCount())
        let fourth = try PostgresSource(connection: cluster.coordinator.conninfo, table: PostgresTable(name: table))
        #expect(Self.close(try Self.maxima(fourth.pinned(toChangeCount: next), slots), fresh))
        #expect(Self.searches(fourth) == slots.count)
        #expect(try Self.storedRows(table, on: coordinator, version: next) == slots.count, "kept once gathered")
    }
}

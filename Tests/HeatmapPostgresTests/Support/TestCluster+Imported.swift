import HeatmapKit
import HeatmapPostgres

extension TestCluster {
    /// The setup of a test on an imported table: the shared cluster, `points` imported into
    /// `table` (replacing what a run before left), and a connection to it, inside a transaction
    /// (`BEGIN` run) when `begin` (a writer or a locker that holds what it takes until it ends).
    ///
    /// - Throws: when PostgreSQL cannot run here (the test carries ``Testing/Trait/needsPostgres``)
    ///   or the import or connection fails.
    static func imported(_ table: String, points: [WeightedLatLng], begin: Bool = false) throws -> (
        cluster: TestCluster, connection: PostgresConnection
    ) {
        let cluster = try require()
        _ = try PostgresImport.run(points: points, into: table, connection: cluster.conninfo, mode: .replace)
        let connection = try PostgresConnection(cluster.conninfo)
        if begin { try connection.execute("BEGIN") }
        return (cluster, connection)
    }
}

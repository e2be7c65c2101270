import HeatmapCore
import HeatmapKit

extension PostgresSource: MeanWeightSource {
    /// Both channels of a mean tile from one state of the table: the density's statements and
    /// then, where it has pixels, the numerator's (`shiftedValues`, the channel
    /// ``meanChannels(valueColumn:)`` made beside this one) in one `REPEATABLE READ READ ONLY`
    /// transaction on one pooled connection, within the statement timeout together. A pinned
    /// version checks its change count once, at the snapshot's start: a change committed
    /// while the tile is read neither fails it nor shows in it. Another `shiftedValues` (a
    /// source of another pool) is read after the density, as two separate requests would be.
    package func meanIntensities(
        in rect: PixelRect, space: PixelSpace, kernel: GaussianKernel, shiftedValues: any WeightSource
    ) throws(any Error) -> (density: IntensityGrid, shiftedValues: IntensityGrid?) {
        guard let shifted = shiftedValues as? PostgresSource, shifted.pool === pool else {
            let density = try intensity(in: rect, space: space, kernel: kernel)
            return (
                density, density.isEmpty ? nil : try shiftedValues.intensity(in: rect, space: space, kernel: kernel)
            )
        }
        let deadline = statementTimeout.map { ContinuousClock.now + $0 }
        return try inSnapshot { (connection) throws(PostgresError) in
            let turns = Turns(connection)
            let density = try SnapshotSource(source: self, turns: turns, deadline: deadline)
                .intensity(in: rect, space: space, kernel: kernel)
            guard !density.isEmpty else { return (density, nil) }
            let numerator = try SnapshotSource(source: shifted, turns: turns, deadline: deadline)
                .intensity(in: rect, space: space, kernel: kernel)
            return (density, numerator)
        }
    }
}

import HeatmapCore
import HeatmapKit

/// The mean's second channel of a layer drawn from a source other than points (a database):
/// the weight of every occupied pixel is Σ wᵢ·(vᵢ − LO), with ``values`` = LO...HI.
package struct SourceMeanChannel: Sendable {
    /// Σ wᵢ·(vᵢ − LO) per pixel.
    package var shiftedValues: any WeightSource
    /// The smallest and largest value of the rows of positive weight.
    package var values: ClosedRange<Double>

    /// A channel of `shiftedValues` over `values`.
    package init(shiftedValues: any WeightSource, values: ClosedRange<Double>) {
        self.shiftedValues = shiftedValues
        self.values = values
    }
}

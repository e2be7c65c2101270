/// A source of weights that reads both channels of the kernel-weighted mean from one state of
/// its data (a database reads them in one snapshot), so that a mean tile never mixes two
/// states: the density Σ wᵢ from itself, the numerator Σ wᵢ·(vᵢ − LO) from `shiftedValues`.
/// A layer drawing the mean from such a source asks for both channels through
/// ``meanIntensities(in:space:kernel:shiftedValues:)`` instead of one after the other.
package protocol MeanWeightSource: WeightSource {
    /// The intensities of `rect` of the density (this source) and of the numerator
    /// (`shiftedValues`), from one state of the data; the numerator is `nil` when the density
    /// is empty (no pixel is drawn). A `shiftedValues` this source cannot read together with
    /// its own rows is read after them, as two separate requests would be.
    func meanIntensities(
        in rect: PixelRect, space: PixelSpace, kernel: GaussianKernel, shiftedValues: any WeightSource
    ) throws(any Error) -> (density: IntensityGrid, shiftedValues: IntensityGrid?)
}

import HeatmapCore

/// The mean's numerator from a source other than points in memory (a database): the weight
/// of every occupied pixel is Σ wᵢ·(vᵢ − ``lowest``) over the rows in it, the channel a
/// ``ValueIndex`` holds as its shifted values; the density is the data set's own source.
struct SourceValues: Sendable {
    let shifted: ExternalSource
    let lowest: Double
    let highest: Double
    /// Both channels from one state of the data, when the density's source is a
    /// ``MeanWeightSource``; `nil` to read them one after the other.
    var together:
        (@Sendable (PixelRect, PixelSpace, GaussianKernel) throws(HeatmapError) -> (IntensityGrid, IntensityGrid?))?
}

extension DataSet {
    /// The smallest and largest value of the data's points of positive weight, for the mean;
    /// `nil` when the data have no values.
    var valueBounds: ClosedRange<Double>? {
        if let valueIndex { return valueIndex.lowest...valueIndex.highest }
        return sourceValues.map { $0.lowest...$0.highest }
    }

    /// The mean of `rect` from the data's two channels.
    ///
    /// - Throws: ``HeatmapError/invalidMean(_:)`` when the data have no values, and the
    ///   source's failures.
    func mean(in rect: PixelRect, space: PixelSpace, kernel: GaussianKernel, minimumDensity: Double)
        throws(HeatmapError) -> MeanGrid
    {
        if let valueIndex {
            return valueIndex.mean(in: rect, space: space, kernel: kernel, minimumDensity: minimumDensity)
        }
        guard let sourceValues else {
            throw .invalidMean("the data have no values: read them with a value column (--value COL)")
        }
        let density: IntensityGrid
        let numerator: IntensityGrid?
        if let together = sourceValues.together {
            (density, numerator) = try together(rect, space, kernel)
        } else {
            density = try source().intensity(in: rect, space: space, kernel: kernel)
            numerator = density.isEmpty ? nil : try sourceValues.shifted.intensity(rect, space, kernel)
        }
        return MeanGrid(
            density: density, numerator: numerator, lowest: sourceValues.lowest, minimumDensity: minimumDensity)
    }
}

extension HeatmapTileLayer {
    /// Creates a layer over a source of weights that can draw ``Aggregate/mean`` too: `source`
    /// answers each occupied pixel's Σ wᵢ (the density), `shiftedValues` its Σ wᵢ·(vᵢ − LO),
    /// where `values` = LO...HI are the smallest and largest value of the points of positive
    /// weight (a ``ValueIndex``'s two channels, from a database's `GROUP BY`, say). Both go
    /// through the one gather and convolution, so the mean is the in-memory one's.
    ///
    /// - Parameters:
    ///   - source: the density, Σ wᵢ of each occupied pixel.
    ///   - shiftedValues: Σ wᵢ·(vᵢ − LO) of each occupied pixel.
    ///   - values: LO...HI, the values' range over the points of positive weight.
    ///   - settings: every setting at once (default Google's).
    ///   - cacheBytes: the most memory the cache of encoded tiles may use; default 64 MiB.
    package convenience init(
        source: some WeightSource, shiftedValues: some WeightSource, values: ClosedRange<Double>,
        settings: HeatmapSettings = .default, cacheBytes: Int = 64 << 20
    ) {
        self.init(source: source, settings: settings, cacheBytes: cacheBytes)
        replaceSource(with: source, shiftedValues: shiftedValues, values: values)
    }

    /// Reads both of the mean's channels in one request when `source` is a ``MeanWeightSource``.
    static func together(_ source: some WeightSource, _ shiftedValues: some WeightSource) -> (
        @Sendable (PixelRect, PixelSpace, GaussianKernel) throws(HeatmapError) -> (IntensityGrid, IntensityGrid?)
    )? {
        guard let paired = source as? any MeanWeightSource else { return nil }
        return { (rect, space, kernel) throws(HeatmapError) in
            do {
                return try paired.meanIntensities(in: rect, space: space, kernel: kernel, shiftedValues: shiftedValues)
            } catch {
                throw HeatmapError(sourceError: error)
            }
        }
    }

    /// Replaces the source and its values, atomically, as ``replaceSource(with:)`` does.
    package func replaceSource(
        with source: some WeightSource, shiftedValues: some WeightSource, values: ClosedRange<Double>
    ) {
        let channel = SourceValues(
            shifted: ExternalSource(shiftedValues), lowest: values.lowerBound, highest: values.upperBound,
            together: Self.together(source, shiftedValues))
        update { $0.data = DataSet(source: ExternalSource(source), sourceValues: channel) }
    }
}

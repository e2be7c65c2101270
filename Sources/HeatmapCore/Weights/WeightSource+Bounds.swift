extension WeightSource {
    /// The weights of `space`'s pixels around `rect` convolved with any separable, symmetric
    /// kernel of `taps.count` (odd) taps, the middle one at distance 0: with the taps of a
    /// kernel at the smallest distance between cells, upper bounds on the intensity of every
    /// pixel of each cell (a search for M(z) over cells a source returns).
    public func convolved(in rect: PixelRect, space: PixelSpace, boundTaps taps: [Float]) throws(Failure)
        -> IntensityGrid
    {
        try convolved(in: rect, space: space, taps: taps, reach: max(0, (taps.count - 1) / 2))
    }
}

extension FramePlan {
    /// The frames of a `datetime` interval: an open end is the data's first second, or the
    /// second after its last (`timeRange`).
    ///
    /// - Throws: ``FramePlanError`` of kind ``FramePlanError/Kind/badInterval`` when an end is
    ///   open and the data have no times, and as ``init(start:end:step:window:)`` does.
    package init(interval: TimeWindow, timeRange: ClosedRange<Int64>?, step: TimeStep, window: TimeStep)
        throws(FramePlanError)
    {
        guard let start = interval.start ?? timeRange?.lowerBound,
            let end = interval.end ?? timeRange.map({ $0.upperBound + 1 })
        else {
            throw FramePlanError(
                .badInterval,
                "the interval \(interval) has an open end and the data have no times (read them with --time COL); "
                    + "give both ends")
        }
        guard let first = Int(exactly: start), let last = Int(exactly: end) else {
            throw FramePlanError(.badInterval, "the interval \(interval) reaches outside the years 1 to 9999")
        }
        try self.init(start: first, end: last, step: step, window: window)
    }
}

extension FramePlan.Window {
    /// The window as a `datetime` filter.
    package var timeWindow: TimeWindow { TimeWindow(start: Int64(start), end: Int64(end)) }
}

/// Two ways of doing the same thing timed fairly against each other.
struct PairedTimes: Codable {
    /// Milliseconds of each repetition, in order.
    var first: [Double]
    var second: [Double]

    var firstMedian: Double { Measure.median(first) }
    var secondMedian: Double { Measure.median(second) }
    var firstMinimum: Double { first.min() ?? 0 }
    var secondMinimum: Double { second.min() ?? 0 }
    /// The median over the repetitions of second ÷ first, each pair run back to back (so that
    /// a change of load between repetitions cancels out).
    var pairedRatioMedian: Double {
        Measure.median(zip(first, second).map { $1 / max($0, 1e-9) })
    }
}

extension Measure {
    /// Times `first` and `second` in alternation: `warmups` untimed runs of each, then
    /// `repetitions` pairs, the one run first swapping every pair (so neither always follows the
    /// other's cache state), in milliseconds. A pair slower than `slow` seconds (a coarse tile
    /// of PostGIS's over 10M rows: tens of seconds) is warmed once and timed 3 times at most,
    /// its noise being small beside it.
    static func paired(
        repetitions: Int, warmups: Int = 2, slow: Double = 2, _ first: () throws -> Void,
        _ second: () throws -> Void
    ) rethrows -> PairedTimes {
        var count = repetitions
        for warmup in 0..<warmups {
            let took = try seconds(first) + seconds(second)
            if warmup == 0, took > slow {
                count = min(repetitions, 3)
                break
            }
        }
        var times = PairedTimes(first: [], second: [])
        for repetition in 0..<count {
            if repetition % 2 == 0 {
                times.first.append(try seconds(first) * 1000)
                times.second.append(try seconds(second) * 1000)
            } else {
                times.second.append(try seconds(second) * 1000)
                times.first.append(try seconds(first) * 1000)
            }
        }
        return times
    }
}

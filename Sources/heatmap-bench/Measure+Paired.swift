/// Two ways of doing the same thing timed fairly against each other.
struct PairedTimes: Codable {
    /// Milliseconds of each repetition, in order.
    var first: [Double]
    var second: [Double]
    /// Milliseconds of the process's CPU time (all threads) of each repetition, where asked
    /// for: on shared cores, the work itself without the waits for a core that lengthen
    /// longer runs more than shorter ones.
    var firstCPU: [Double]? = nil
    var secondCPU: [Double]? = nil

    var firstMedian: Double { Measure.median(first) }
    var secondMedian: Double { Measure.median(second) }
    var firstMinimum: Double { first.min() ?? 0 }
    var secondMinimum: Double { second.min() ?? 0 }
    /// The median over the repetitions of second ÷ first, each pair run back to back (so that
    /// a change of load between repetitions cancels out).
    var pairedRatioMedian: Double {
        Measure.median(zip(first, second).map { $1 / max($0, 1e-9) })
    }
    /// ``pairedRatioMedian`` of the CPU times, if timed.
    var pairedCPURatioMedian: Double? {
        guard let firstCPU, let secondCPU else { return nil }
        return Measure.median(zip(firstCPU, secondCPU).map { $1 / max($0, 1e-9) })
    }
}

extension Measure {
    /// Times `first` and `second` in alternation: `warmups` untimed runs of each, then
    /// `repetitions` pairs, the one run first swapping every pair (so neither always follows the
    /// other's cache state), in milliseconds. A pair slower than `slow` seconds (a coarse tile
    /// of PostGIS's over 10M rows: tens of seconds) is warmed once and timed 3 times at most,
    /// its noise being small beside it. With `cpu`, each run's process CPU time is kept too.
    static func paired(
        repetitions: Int, warmups: Int = 2, slow: Double = 2, cpu: Bool = false, _ first: () throws -> Void,
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
        var times = PairedTimes(first: [], second: [], firstCPU: cpu ? [] : nil, secondCPU: cpu ? [] : nil)
        // One run: its wall time, and its CPU time where asked for.
        func run(_ body: () throws -> Void, _ wall: inout [Double], _ used: inout [Double]?) rethrows {
            let start = cpu ? processCPUSeconds() : 0
            wall.append(try seconds(body) * 1000)
            if cpu { used?.append((processCPUSeconds() - start) * 1000) }
        }
        for repetition in 0..<count {
            if repetition % 2 == 0 {
                try run(first, &times.first, &times.firstCPU)
                try run(second, &times.second, &times.secondCPU)
            } else {
                try run(second, &times.second, &times.secondCPU)
                try run(first, &times.first, &times.firstCPU)
            }
        }
        return times
    }
}

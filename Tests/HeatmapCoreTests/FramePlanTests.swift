import Testing

@testable import HeatmapCore

/// The frame plan of an animation: windows by hours, days, weeks and calendar months in UTC,
/// cut at the interval's end, counted without being made, and clear errors for bad input.
@Suite struct FramePlanTests {
    /// 2024-03-01T00:00:00Z.
    static let march1 = 1_709_251_200
    static let day = 86400

    @Test("civil dates round-trip with Unix seconds over years 1 to 9999, with known instants")
    func civilTime() throws {
        #expect(CivilTime(unixSeconds: 0) == CivilTime(year: 1970, month: 1, day: 1))
        #expect(CivilTime(unixSeconds: Self.march1) == CivilTime(year: 2024, month: 3, day: 1))
        #expect(CivilTime(unixSeconds: Self.march1 - 1) == CivilTime(year: 2024, month: 2, day: 29, secondOfDay: 86399))
        #expect(CivilTime(unixSeconds: CivilTime.range.lowerBound) == CivilTime(year: 1, month: 1, day: 1))
        #expect(
            CivilTime(unixSeconds: CivilTime.range.upperBound)
                == CivilTime(year: 9999, month: 12, day: 31, secondOfDay: 86399))
        #expect(CivilTime(unixSeconds: CivilTime.range.upperBound + 1) == nil)
        #expect(CivilTime(unixSeconds: Int.min) == nil)
        var rng = SplitMix64(seed: 28)
        for _ in 0..<20000 {
            let seconds = Int.random(in: CivilTime.range, using: &rng)
            let civil = try #require(CivilTime(unixSeconds: seconds))
            #expect(civil.unixSeconds == seconds)
            #expect((1...CivilTime.daysIn(month: civil.month, year: civil.year)).contains(civil.day))
        }
    }

    @Test("steps and windows parse in the command's spellings, and bad ones name the setting and text")
    func parsing() throws {
        #expect(try TimeStep(parsing: "1d") == TimeStep(count: 1, unit: .day))
        #expect(try TimeStep(parsing: "12h").description == "12h")
        #expect(try TimeStep(parsing: "2w", name: "window") == TimeStep(count: 2, unit: .week))
        #expect(try TimeStep(parsing: "1mo").unit == .month)
        #expect(try TimeStep(parsing: "3 months") == TimeStep(count: 3, unit: .month))
        #expect(try TimeStep(parsing: "day") == TimeStep(count: 1, unit: .day))
        let cases: [(String, String, FramePlanError.Kind, String)] = [
            ("0d", "step", .nonPositiveLength, "the step must be positive, not 0d"),
            ("-2h", "window", .nonPositiveLength, "the window must be positive, not -2h"),
            ("1y", "step", .unparsable, "the step '1y' has no unit of hours, days, weeks or months"),
            ("", "step", .unparsable, "the step '' has no unit"),
            ("1.5d", "step", .unparsable, "the step '1.5d' has no unit"),
            ("99999999999999999999d", "window", .unparsable, "the window '99999999999999999999d' is not a whole"),
            ("2000000h", "step", .lengthTooLong, "the step 2000000h is over the limit of 1000000 units"),
        ]
        for (text, name, kind, message) in cases {
            #expect {
                try TimeStep(parsing: text, name: name)
            } throws: { error in
                guard let error = error as? FramePlanError else { return false }
                return error.kind == kind && error.message.hasPrefix(message)
            }
        }
    }

    @Test("a day step and a 7-day window over March 2024: 31 frames, windows cut at the end")
    func days() throws {
        let end = Self.march1 + 31 * Self.day
        let plan = try FramePlan(
            start: Self.march1, end: end, step: TimeStep(parsing: "1d"), window: TimeStep(parsing: "7d"))
        #expect(plan.count == 31)
        #expect(plan[0] == FramePlan.Window(start: Self.march1, end: Self.march1 + 7 * Self.day))
        #expect(plan[0].label == "2024-03-01 – 2024-03-08")
        #expect(plan[24].end == end)
        #expect(plan[30] == FramePlan.Window(start: end - Self.day, end: end))
        #expect(plan.last?.label == "2024-03-31 – 2024-04-01")
    }

    @Test("every step and interval: frames open a step apart from the start, before the end, cut at it")
    func property() throws {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<500 {
            let unit = TimeStep.Unit.allCases.randomElement(using: &rng) ?? .day
            let step = try TimeStep(count: Int.random(in: 1...5, using: &rng), unit: unit)
            let window = try TimeStep(
                count: Int.random(in: 1...5, using: &rng),
                unit: TimeStep.Unit.allCases.randomElement(using: &rng) ?? .day, name: "window")
            let start = Int.random(in: -3_000_000_000...4_000_000_000, using: &rng)
            let end = start + Int.random(in: 1...(400 * Self.day), using: &rng)
            let plan = try FramePlan(start: start, end: end, step: step, window: window)
            // The count by brute force: steps opening before the end.
            var brute = 0
            while let opens = step.advance(start, times: brute), opens < end { brute += 1 }
            #expect(plan.count == brute, "\(step) from \(start) to \(end)")
            for (k, frame) in plan.enumerated() {
                #expect(frame.start == step.advance(start, times: k))
                #expect(frame.start < frame.end && frame.end <= end)
                #expect(frame.end == min(end, window.advance(frame.start, times: 1) ?? end))
            }
        }
    }

    @Test("calendar months keep the day, or the month's last: January 31 then February 29, March 31")
    func months() throws {
        let january31 = CivilTime(year: 2024, month: 1, day: 31, secondOfDay: 3600).unixSeconds
        let end = CivilTime(year: 2024, month: 6, day: 1).unixSeconds
        let plan = try FramePlan(
            start: january31, end: end, step: TimeStep(parsing: "1mo"), window: TimeStep(parsing: "1mo"))
        let opens = plan.map { CivilTime(unixSeconds: $0.start).map { "\($0.dateText) \($0.timeText)" } ?? "" }
        #expect(
            opens == [
                "2024-01-31 01:00", "2024-02-29 01:00", "2024-03-31 01:00", "2024-04-30 01:00",
                "2024-05-31 01:00",
            ])
        #expect(plan[1].label == "2024-02-29 01:00 – 2024-03-29 01:00 UTC")
        #expect(plan[4].end == end)
        let hour = try FramePlan(
            start: Self.march1 + 13 * 3600, end: Self.march1 + 15 * 3600, step: TimeStep(parsing: "1h"),
            window: TimeStep(parsing: "1h"))
        #expect(hour.map(\.label) == ["2024-03-01 13:00 – 14:00 UTC", "2024-03-01 14:00 – 15:00 UTC"])
    }

    @Test("over 10,000 frames is an error naming the step, the interval and the count, made in O(1)")
    func tooManyFrames() throws {
        let start = CivilTime(year: 2020, month: 1, day: 1).unixSeconds
        let end = CivilTime(year: 2024, month: 1, day: 1).unixSeconds
        #expect {
            try FramePlan(start: start, end: end, step: TimeStep(parsing: "1h"), window: TimeStep(parsing: "1d"))
        } throws: { error in
            (error as? FramePlanError)?.message
                == "the step 1h makes 35064 frames over 2020-01-01T00:00:00Z/2024-01-01T00:00:00Z, over the limit "
                + "of 10000; use a longer step or a shorter interval"
        }
        // The whole range of years in hours: counted, not made.
        #expect {
            try FramePlan(
                start: CivilTime.range.lowerBound, end: CivilTime.range.upperBound, step: TimeStep(parsing: "1h"),
                window: TimeStep(parsing: "1h"))
        } throws: { error in (error as? FramePlanError)?.kind == .tooManyFrames }
        // Months from January of year 1 to December 9999: 119,988 frames.
        #expect {
            try FramePlan(
                start: CivilTime.range.lowerBound, end: CivilTime.range.upperBound, step: TimeStep(parsing: "1mo"),
                window: TimeStep(parsing: "1mo"))
        } throws: { error in (error as? FramePlanError)?.message.contains("makes 119988 frames") == true }
        // Exactly 10,000 is allowed.
        let plan = try FramePlan(
            start: start, end: start + 10_000 * 3600, step: TimeStep(parsing: "1h"), window: TimeStep(parsing: "1h"))
        #expect(plan.count == 10_000)
        #expect(plan[9999].end == start + 10_000 * 3600)
    }

    @Test("an empty, reversed or out-of-range interval is an error naming it")
    func badIntervals() throws {
        let step = try TimeStep(parsing: "1d")
        let cases: [(Int, Int, String)] = [
            (Self.march1, Self.march1, "the interval 2024-03-01T00:00:00Z/2024-03-01T00:00:00Z is empty"),
            (Self.march1, Self.march1 - 1, "the interval 2024-03-01T00:00:00Z/2024-02-29T23:59:59Z is reversed"),
            (0, Int.max, "the interval 1970-01-01T00:00:00Z/\(Int.max) reaches outside the years 1 to 9999"),
        ]
        for (start, end, message) in cases {
            #expect {
                try FramePlan(start: start, end: end, step: step, window: step)
            } throws: { error in
                (error as? FramePlanError).map { $0.kind == .badInterval && $0.message.hasPrefix(message) } == true
            }
        }
    }
}

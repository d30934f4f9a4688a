import MinutaStore
import MinutaTimer
import Testing

/// The instants `--at` takes, worked out by hand for fixed clocks (SPEC 10).
@Suite struct TimerInstantTests {
    /// 2024-11-24T10:00:00Z, a Sunday: 11:00 in Berlin, 05:00 in New York.
    static let now: Int64 = 1_732_442_400_000
    static let berlin = StoreTimeZone(identifier: "Europe/Berlin")!
    static let newYork = StoreTimeZone(identifier: "America/New_York")!

    @Test("now, offsets back from now, and their refusals", arguments: [
        ("now", Int64(0)), ("-15m", 900_000), ("-1h30m", 5_400_000), ("-90s", 90_000), ("-2h", 7_200_000), (" -1h ", 3_600_000),
    ])
    func offsets(_ text: String, back: Int64) throws {
        #expect(try TimerInstant.milliseconds(of: text, now: Self.now, timeZone: Self.berlin) == Self.now - back)
    }

    @Test("times of day are today in the store's time zone")
    func timeOfDay() throws {
        // 09:30 in Berlin on 2024-11-24 (UTC+1) is 08:30Z; in New York 09:30 is later than 05:00: yesterday's.
        #expect(try TimerInstant.milliseconds(of: "09:30", now: Self.now, timeZone: Self.berlin) == Self.now - 5_400_000)
        #expect(try TimerInstant.milliseconds(of: "09:30:15", now: Self.now, timeZone: Self.berlin) == Self.now - 5_385_000)
        #expect(try TimerInstant.milliseconds(of: "09:30", now: Self.now, timeZone: Self.newYork) == Self.now - 19 * 3_600_000 - 1_800_000)
        #expect(try TimerInstant.milliseconds(of: "04:00", now: Self.now, timeZone: Self.newYork) == Self.now - 3_600_000)
    }

    @Test("dates with a time, in the store's zone or with Z or an offset")
    func dates() throws {
        #expect(try TimerInstant.milliseconds(of: "2024-11-23T18:00", now: Self.now, timeZone: Self.berlin) == 1_732_381_200_000)
        #expect(try TimerInstant.milliseconds(of: "2024-11-23T18:00Z", now: Self.now, timeZone: Self.berlin) == 1_732_384_800_000)
        #expect(try TimerInstant.milliseconds(of: "2024-11-23T18:00+02:00", now: Self.now, timeZone: Self.newYork) == 1_732_377_600_000)
        // Summer time in New York (UTC-4): 2024-07-01T12:00 is 16:00Z.
        #expect(try TimerInstant.milliseconds(of: "2024-07-01T12:00", now: Self.now, timeZone: Self.newYork) == 1_719_849_600_000)
    }

    @Test("anything else is refused with the forms it takes", arguments: [
        "", "9:30", "25:00", "12:60", "-", "-15", "-m", "-1m1h", "-15x", "yesterday", "2024-11-24", "2024-13-01T10:00", "1h", "-1h1h",
    ])
    func refused(_ text: String) {
        #expect(throws: TimerError.unreadableInstant(text)) { try TimerInstant.milliseconds(of: text, now: Self.now, timeZone: Self.berlin) }
    }

    @Test("a date after now is refused")
    func future() {
        #expect(throws: TimerError.instantInFuture("2024-11-25T08:00")) {
            try TimerInstant.milliseconds(of: "2024-11-25T08:00", now: Self.now, timeZone: Self.berlin)
        }
    }

    /// 2024-11-25T00:05 in Berlin (23:05Z the day before).
    static let afterMidnight: Int64 = 1_732_489_500_000

    @Test("a clock time later than now is yesterday's: at 00:05, 23:50 is yesterday 23:50")
    func yesterday() throws {
        #expect(try TimerInstant.milliseconds(of: "23:50", now: Self.afterMidnight, timeZone: Self.berlin) == Self.afterMidnight - 900_000)
        #expect(try TimerInstant.milliseconds(of: "00:01", now: Self.afterMidnight, timeZone: Self.berlin) == Self.afterMidnight - 240_000)
        // 00:06 is a minute ahead today, so yesterday's, 23 h 59 min ago.
        #expect(try TimerInstant.milliseconds(of: "00:06", now: Self.afterMidnight, timeZone: Self.berlin) == Self.afterMidnight - 86_340_000)
    }

    @Test("track's END as a clock time is read after START: the next day when earlier than START's clock time, across clock changes")
    func endAfterStart() throws {
        func end(_ text: String, after start: String, now: Int64 = Self.now) throws -> Int64 {
            let begun = try TimerInstant.milliseconds(of: start, now: now, timeZone: Self.berlin)
            return try TimerInstant.milliseconds(ofEnd: text, after: begun, now: now, timeZone: Self.berlin) - begun
        }
        let hour: Int64 = 3_600_000
        // 23:00 - 01:00 is two hours, the end on the day after the start (not today, two days later).
        #expect(try end("01:00", after: "2024-11-22T23:00") == 2 * hour)
        #expect(try end("10:30", after: "2024-11-22T09:00") == 3 * hour / 2)
        #expect(try end("09:00", after: "2024-11-22T09:00") == 0, "the same clock time is the same instant (refused later as empty)")
        // Across clock changes: the spring night has 23 hours, the autumn one 25.
        let later: Int64 = 1_796_083_200_000 // 2026-12-01T00:00Z
        #expect(try end("04:00", after: "2026-03-28T23:00", now: later) == 4 * hour)
        #expect(try end("01:00", after: "2026-10-24T23:00", now: later) == 2 * hour)
        #expect(try end("03:00", after: "2026-10-24T23:00", now: later) == 5 * hour)
        // A clock time the clocks skip is refused with its choices, one after now as in the future.
        #expect(throws: TimerError.self) { try end("02:30", after: "2026-03-28T23:00", now: later) }
        #expect(throws: TimerError.instantInFuture("12:00")) { try end("12:00", after: "09:00") }
        // Other forms are read as --at reads them.
        #expect(try end("2024-11-23T01:00", after: "2024-11-22T23:00") == 2 * hour)
    }

    @Test("a time the clocks skip (Berlin, 2026-03-29 02:30) is refused with the nearest valid times")
    func skipped() {
        #expect(throws: TimerError.skippedLocalTime("2026-03-29T02:30", timeZone: "Europe/Berlin", before: "2026-03-29T01:59", after: "2026-03-29T03:00")) {
            try TimerInstant.milliseconds(of: "2026-03-29T02:30", now: 1_800_000_000_000, timeZone: Self.berlin)
        }
        // As a clock time on that day (at 12:00, 10:00Z) too.
        #expect(throws: TimerError.skippedLocalTime("02:30", timeZone: "Europe/Berlin", before: "2026-03-29T01:59", after: "2026-03-29T03:00")) {
            try TimerInstant.milliseconds(of: "02:30", now: 1_774_778_400_000, timeZone: Self.berlin)
        }
        let message = TimerError.skippedLocalTime("2026-03-29T02:30", timeZone: "Europe/Berlin", before: "2026-03-29T01:59", after: "2026-03-29T03:00").description
        #expect(message.contains("does not exist in Europe/Berlin") && message.contains("2026-03-29T01:59 and 2026-03-29T03:00"), "\(message)")
    }

    @Test("a time the clocks repeat (Berlin, 2026-10-25 02:30) is refused with its two offsets, unless one is given")
    func repeated() throws {
        #expect(throws: TimerError.repeatedLocalTime("2026-10-25T02:30", timeZone: "Europe/Berlin", first: "2026-10-25T02:30+02:00", second: "2026-10-25T02:30+01:00")) {
            try TimerInstant.milliseconds(of: "2026-10-25T02:30", now: 1_800_000_000_000, timeZone: Self.berlin)
        }
        // 02:30+01:00 is 01:30Z; +02:00 is 00:30Z.
        #expect(try TimerInstant.milliseconds(of: "2026-10-25T02:30+01:00", now: 1_800_000_000_000, timeZone: Self.berlin) == 1_792_891_800_000)
        #expect(try TimerInstant.milliseconds(of: "2026-10-25T02:30+02:00", now: 1_800_000_000_000, timeZone: Self.berlin) == 1_792_888_200_000)
        // An hour either side is one instant.
        #expect(try TimerInstant.milliseconds(of: "2026-10-25T03:30", now: 1_800_000_000_000, timeZone: Self.berlin) == 1_792_895_400_000)
    }
}

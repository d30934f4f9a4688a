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
        // 09:30 in Berlin on 2024-11-24 (UTC+1) is 08:30Z; in New York 09:30 is in the future at 05:00.
        #expect(try TimerInstant.milliseconds(of: "09:30", now: Self.now, timeZone: Self.berlin) == Self.now - 5_400_000)
        #expect(try TimerInstant.milliseconds(of: "09:30:15", now: Self.now, timeZone: Self.berlin) == Self.now - 5_385_000)
        #expect(throws: TimerError.instantInFuture("09:30")) { try TimerInstant.milliseconds(of: "09:30", now: Self.now, timeZone: Self.newYork) }
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
}

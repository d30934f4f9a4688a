import Foundation
import MinutaStore
import Testing
import TestSupport

/// `reports/YYYY/MM.svg` rendered by rsvg-convert: well-formed, the size it declares, every tag's
/// bar color present as pixels, readable with 1 or 40 tags and 0 or 24 hours a day.
struct MonthPictureTests {
    static let march = Month(year: 2024, month: 3)!
    /// 2024-03-01T00:00:00Z.
    static let firstOfMarch: Int64 = 1_709_251_200_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    /// A color per index, spread so no two of 40 are alike: worked out here, not by the picture code.
    static func color(_ index: Int) -> String {
        let red = (index * 67 + 40) % 256, green = (index * 151 + 90) % 256, blue = (index * 29 + 200) % 256
        return "#" + [red, green, blue].map { String(format: "%02X", $0) }.joined()
    }

    static func tags(_ count: Int) -> [ReportTag] {
        (0..<count).map { ReportTag(id: "T\($0)", name: "Tag number \($0) — ünïcode & <more>", color: color($0)) }
    }

    @Test("one tag, one 2-hour record: the picture renders at its size with the tag's color and the month total")
    func oneTag() throws {
        let record = ReportRecord(id: "R", start: Self.firstOfMarch + 9 * Self.hour, end: Self.firstOfMarch + 11 * Self.hour, tagID: "T0", comment: "", imageCount: 0)
        let report = MonthReport(month: Self.march, records: [record], tags: Self.tags(1), timeZone: .utc, now: 0)
        let rendering = try PNGCheck.render(MonthPicture.bytes(report), counting: [Self.color(0)])
        #expect(rendering.pngWidth == rendering.svgWidth && rendering.pngHeight == rendering.svgHeight)
        #expect(rendering.pngWidth >= 600 && rendering.pngHeight >= 300)
        #expect(rendering.pixels[Self.color(0)] ?? 0 > 100, "the bar's color: \(rendering.pixels)")
        #expect(rendering.texts.contains { $0.contains("2.00 h") })
        #expect(rendering.texts.contains { $0.hasPrefix("Tag number 0") })
        #expect(rendering.texts.contains("31"), "day labels up to the 31st")
    }

    @Test("40 tags and a 24-hour day: every tag's color is painted and every tag is in the legend")
    func fortyTags() throws {
        let tags = Self.tags(40)
        var records: [ReportRecord] = []
        for index in 0..<40 {
            let start = Self.firstOfMarch + Int64(index % 30) * Self.day + Int64(index / 30) * 4 * Self.hour
            records.append(ReportRecord(id: "R\(index)", start: start, end: start + (1 + Int64(index % 3)) * Self.hour, tagID: "T\(index)", comment: "", imageCount: 0))
        }
        // The 31st: 24 hours in three records.
        for part in 0..<3 {
            let start = Self.firstOfMarch + 30 * Self.day + Int64(part) * 8 * Self.hour
            records.append(ReportRecord(id: "F\(part)", start: start, end: start + 8 * Self.hour, tagID: "T\(part)", comment: "", imageCount: 0))
        }
        let report = MonthReport(month: Self.march, records: records, tags: tags, timeZone: .utc, now: 0)
        let colors = (0..<40).map(Self.color)
        let rendering = try PNGCheck.render(MonthPicture.bytes(report), counting: colors)
        #expect(rendering.pngWidth == rendering.svgWidth && rendering.pngHeight == rendering.svgHeight)
        for (index, color) in colors.enumerated() {
            #expect(rendering.pixels[color] ?? 0 > 20, "tag \(index) (\(color)) has \(rendering.pixels[color] ?? 0) pixels")
        }
        for index in 0..<40 {
            #expect(rendering.texts.contains { $0.hasPrefix("Tag number \(index) ") }, "tag \(index) is not in the legend")
        }
        #expect(rendering.texts.contains("24 h"), "the axis reaches 24 hours: \(rendering.texts.filter { $0.hasSuffix(" h") })")
    }

    @Test("a month without time renders, says so and shows 0.00 h")
    func empty() throws {
        let report = MonthReport(month: Self.march, records: [], tags: Self.tags(3), timeZone: .utc, now: 0)
        let rendering = try PNGCheck.render(MonthPicture.bytes(report), counting: [Self.color(0)])
        #expect(rendering.pngWidth == rendering.svgWidth && rendering.pngHeight == rendering.svgHeight)
        #expect(rendering.pixels[Self.color(0)] == 0)
        #expect(rendering.texts.contains { $0.contains("0.00 h") })
        #expect(rendering.texts.contains("No time recorded this month."))
    }
}

/// The picture is bounded (SPEC section 9, issue 25): time is drawn on the days it covers, at most
/// 24 hours a day, and what the bars cannot show is flagged.
struct MonthPictureBoundsTests {
    static let march = MonthPictureTests.march
    static let firstOfMarch = MonthPictureTests.firstOfMarch
    static let hour = MonthPictureTests.hour
    static let day = MonthPictureTests.day

    static func drawn(_ layout: MonthPicture.Layout) -> [Int64] {
        layout.bars.map { Int64($0.reduce(0) { $0 + $1.milliseconds }.rounded()) }
    }

    @Test("a record that crosses midnight is drawn on both days it covers (the CSVs count it on the first)")
    func crossingMidnight() {
        let start = Self.firstOfMarch + 14 * Self.day + 23 * Self.hour + Self.hour / 2
        let record = ReportRecord(id: "R", start: start, end: start + 2 * Self.hour, tagID: "T0", comment: "", imageCount: 0)
        let report = MonthReport(month: Self.march, records: [record], tags: MonthPictureTests.tags(1), timeZone: .utc, now: 0)
        let drawn = Self.drawn(MonthPicture.layout(report))
        #expect(drawn[14] == Self.hour / 2 && drawn[15] == 3 * Self.hour / 2)
        #expect(drawn.reduce(0, +) == 2 * Self.hour)
    }

    @Test("a record ending in 9999 fills each day from its start to the month's end with 24 h, and a note says so")
    func endInYear9999() throws {
        let end = try #require(ISO8601.milliseconds(from: "9999-12-31T23:59:59.999Z"))
        let record = ReportRecord(id: "R", start: Self.firstOfMarch + 14 * Self.day + 9 * Self.hour, end: end, tagID: "T0", comment: "", imageCount: 0)
        let report = MonthReport(month: Self.march, records: [record], tags: MonthPictureTests.tags(1), timeZone: .utc, now: 0)
        let layout = MonthPicture.layout(report)
        #expect(Self.drawn(layout) == Array(repeating: 0, count: 14) + [15 * Self.hour] + Array(repeating: Self.day, count: 16))
        #expect(layout.axisHours == 24 && layout.axisStep == 4)
        #expect(layout.longRecords?.count == 1 && layout.longTimers == nil)
        let rendering = try PNGCheck.render(MonthPicture.bytes(report), counting: [MonthPictureTests.color(0)])
        #expect(rendering.pngWidth == rendering.svgWidth && rendering.pngHeight == rendering.svgHeight)
        #expect(rendering.texts.contains("24 h") && !rendering.texts.contains("28 h"))
        #expect(rendering.texts.contains { $0.contains("more than a day (to 9999-12-31 23:59)") }, "\(rendering.texts.suffix(3))")
        // 16.6 full bars of 19 x 300 pixels.
        #expect(rendering.pixels[MonthPictureTests.color(0)] ?? 0 > 16 * 19 * 290)
    }

    @Test("a timer running since year 1 is drawn 24 h every day and flagged in the picture")
    func timerSinceYearOne() throws {
        let start = try #require(ISO8601.milliseconds(from: "0001-01-01T00:00:00Z"))
        let record = ReportRecord(id: "R", start: start, end: nil, tagID: "T0", comment: "", imageCount: 0)
        let report = MonthReport(month: try #require(Month(year: 1, month: 1)), records: [record], tags: MonthPictureTests.tags(1),
                                 timeZone: .utc, now: 1_735_689_600_000)
        let layout = MonthPicture.layout(report)
        #expect(Self.drawn(layout) == Array(repeating: Self.day, count: 31))
        #expect(layout.longTimers?.count == 1 && layout.longTimers?.earliestStart == start)
        let rendering = try PNGCheck.render(MonthPicture.bytes(report), counting: [])
        #expect(rendering.texts.contains { $0.contains("A timer has been running for more than a day, since 0001-01-01 00:00") })
    }

    @Test("overlapping records on one day are drawn as 24 h and the day is marked; colors keep their shares")
    func overlappingRecords() throws {
        let start = Self.firstOfMarch + 14 * Self.day + 9 * Self.hour
        let records = (0..<1_000).map { index in
            ReportRecord(id: "R\(index)", start: start, end: start + Self.hour, tagID: index < 750 ? "T0" : "T1", comment: "", imageCount: 0)
        }
        let report = MonthReport(month: Self.march, records: records, tags: MonthPictureTests.tags(2), timeZone: .utc, now: 0)
        let layout = MonthPicture.layout(report)
        #expect(layout.overfullDays == [15])
        #expect(Self.drawn(layout)[14] == Self.day)
        let shares = layout.bars[14].map(\.milliseconds)
        #expect(shares.count == 2 && abs(shares[0] - 18 * Double(Self.hour)) < 1 && abs(shares[1] - 6 * Double(Self.hour)) < 1)
        let rendering = try PNGCheck.render(MonthPicture.bytes(report), counting: [])
        #expect(rendering.texts.contains { $0.contains("more than 24 h") })
        #expect(rendering.texts.contains { $0.hasPrefix("Tag number 0") && $0.hasSuffix(" 750.00 h") })
    }

    @Test("more than 40 tags: the 39 with the most time in the legend, the rest as one entry")
    func manyTags() throws {
        let tags = MonthPictureTests.tags(100)
        let records = (0..<100).map { index in
            let start = Self.firstOfMarch + Int64(index % 31) * Self.day
            return ReportRecord(id: "R\(index)", start: start, end: start + Int64(1 + index) * 60_000, tagID: "T\(index)", comment: "", imageCount: 0)
        }
        let report = MonthReport(month: Self.march, records: records, tags: tags, timeZone: .utc, now: 0)
        let layout = MonthPicture.layout(report)
        #expect(layout.legend.count == MonthPicture.legendLimit)
        #expect(layout.legend.last == .others(count: 61))
        // Tags 61 to 99 have the most minutes; in tags.json's order.
        #expect(layout.legend.dropLast() == (61..<100).map { MonthPicture.Entry.category(.tag("T\($0)")) })
        let rendering = try PNGCheck.render(MonthPicture.bytes(report), counting: [])
        #expect(rendering.texts.contains { $0.hasPrefix("61 more ") })
        #expect(!rendering.texts.contains { $0.hasPrefix("Tag number 60 ") })
        #expect(rendering.pngHeight == MonthPicture.height(legendEntries: 40))
    }
}

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

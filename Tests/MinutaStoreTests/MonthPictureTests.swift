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

/// The picture is bounded (SPEC section 9): time is drawn on the days it covers, at most
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
        // The legend: the name, then its hours on their own.
        let name = try #require(rendering.texts.firstIndex { $0.hasPrefix("Tag number 0") })
        #expect(rendering.texts.dropFirst(name + 1).first == "750.00 h", "\(rendering.texts)")
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
        #expect(rendering.texts.contains("61 more"))
        #expect(!rendering.texts.contains { $0.hasPrefix("Tag number 60 ") })
        #expect(rendering.pngHeight == MonthPicture.height(legendEntries: 40))
    }
}

/// The picture's numbers and labels: the legend adds up to the title, time outside the
/// month's days is said, and no two labels overlap.
struct MonthPictureReadabilityTests {
    static let hour = MonthPictureTests.hour
    static let day = MonthPictureTests.day

    /// Each `<text>`'s box, estimated from DejaVu Sans' advance widths (0.62 em a character, 0.75 an
    /// upper-case one, 0.32 a space, 1 em an East Asian wide one), cut to its clip rectangle; prints the
    /// pairs that overlap and the boxes outside the picture.
    static let overlapScript = #"""
        import json, sys, unicodedata
        import xml.etree.ElementTree as ET
        ns = '{http://www.w3.org/2000/svg}'
        root = ET.parse(sys.argv[1]).getroot()
        width, height = float(root.get('width')), float(root.get('height'))
        clips = {}
        for clip in root.iter(ns + 'clipPath'):
            rect = clip.find(ns + 'rect')
            clips['url(#' + clip.get('id') + ')'] = (float(rect.get('x')), float(rect.get('width')))
        def advance(c):
            if unicodedata.east_asian_width(c) in 'WF': return 1.0
            if c == ' ': return 0.32
            return 0.75 if c.isupper() else 0.62
        boxes = []
        for t in root.iter(ns + 'text'):
            text = ''.join(t.itertext())
            size = float(t.get('font-size') or root.get('font-size'))
            x, y = float(t.get('x')), float(t.get('y'))
            w = sum(advance(c) for c in text) * size
            anchor = t.get('text-anchor') or 'start'
            left = x - w if anchor == 'end' else x - w / 2 if anchor == 'middle' else x
            right = left + w
            if t.get('clip-path') in clips:
                cx, cw = clips[t.get('clip-path')]
                left, right = max(left, cx), min(right, cx + cw)
            boxes.append((text, left, y - 0.8 * size, right, y + 0.25 * size))
        problems = []
        for i, a in enumerate(boxes):
            if a[1] < 0 or a[3] > width or a[2] < 0 or a[4] > height:
                problems.append('outside: %r' % (a,))
            for b in boxes[i + 1:]:
                if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]:
                    problems.append('overlap: %r %r' % (a[0], b[0]))
        print(json.dumps({'labels': len(boxes), 'problems': problems}))
        """#

    static func labelProblems(_ svg: [UInt8]) throws -> (labels: Int, problems: [String]) {
        try withTemporaryDirectory { folder in
            let path = folder + "/picture.svg"
            guard FileManager.default.createFile(atPath: path, contents: Data(svg)) else { throw FixtureError("cannot write \(path)") }
            let output = try PythonScript.run(overlapScript, arguments: [path])
            guard let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
                  let labels = object["labels"] as? Int, let problems = object["problems"] as? [String]
            else { throw FixtureError("the overlap check printed \(output)") }
            return (labels, problems)
        }
    }

    /// 3,000 records in a month (about 100 a day), under `tagCount` tags, some running, overlapping, long.
    static func busyMonth(tagCount: Int, odd: Bool) -> MonthReport {
        var random = SeededGenerator(seed: UInt64(tagCount))
        let tags = MonthPictureTests.tags(tagCount)
        var records: [ReportRecord] = []
        for index in 0..<3_000 {
            let start = MonthPictureTests.firstOfMarch + Int64(random.next() % 31) * day + Int64(random.next() % 86_400) * 1000
            let end = odd && index % 500 == 0 ? nil : start + Int64(random.next() % 600 + 60) * 1000 * (odd ? 10 : 1)
            records.append(ReportRecord(id: "R\(index)", start: start, end: end, tagID: "T\(random.next() % UInt64(tagCount))", comment: "", imageCount: 0))
        }
        if odd { records.append(ReportRecord(id: "EARLY", start: MonthPictureTests.firstOfMarch - 2 * hour, end: MonthPictureTests.firstOfMarch - hour, tagID: nil, comment: "", imageCount: 0)) }
        return MonthReport(month: MonthPictureTests.march, records: records, tags: tags, timeZone: .utc, now: MonthPictureTests.firstOfMarch + 40 * day)
    }

    @Test("3,000 records a month: no two labels overlap and every label is inside the picture", arguments: [
        (1, false), (8, false), (40, false), (100, false), (8, true), (100, true),
    ] as [(Int, Bool)])
    func labelsNeverOverlap(tagCount: Int, odd: Bool) throws {
        let report = Self.busyMonth(tagCount: tagCount, odd: odd)
        let (labels, problems) = try Self.labelProblems(MonthPicture.bytes(report))
        #expect(labels > 40)
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    /// "Work [881ED162-AE2E-B… 3.00 h" was drawn as one clipped text, so the picture showed "3.0(".
    @Test("a long tag name is cut in the legend and its hours show whole, beside it")
    func longNameKeepsHours() throws {
        let tags = [ReportTag(id: "881ED162-AE2E-B1C4-9A57-2B1D3C4E5F60", name: "Work", color: "#FF0000"),
                    ReportTag(id: "981ED162-AE2E-B1C4-9A57-2B1D3C4E5F60", name: "Work", color: "#00FF00")]
        let records = tags.enumerated().map { index, tag in
            let start = MonthPictureTests.firstOfMarch + Int64(index) * MonthPictureTests.day
            return ReportRecord(id: "R\(index)", start: start, end: start + 3 * Self.hour, tagID: tag.id, comment: "", imageCount: 0)
        }
        let report = MonthReport(month: MonthPictureTests.march, records: records, tags: tags, timeZone: .utc, now: 0)
        let svg = String(decoding: MonthPicture.bytes(report), as: UTF8.self)
        let lines = svg.split(separator: "\n").map(String.init)
        // The picture's frame and clip paths, and the legend's text of the first tag.
        let frame = lines.filter { $0.hasPrefix("<?xml") || $0.hasPrefix("<svg") || $0.hasPrefix("<rect x=\"0\" y=\"0\"") || $0.hasPrefix("<defs>") }
        let hoursLine = try #require(lines.first { $0.hasPrefix("<text") && $0.hasSuffix(" 3.00 h</text>") || $0.hasSuffix(">3.00 h</text>") })
        let nameLine = try #require(lines.first { $0.hasPrefix("<text") && $0.contains(">Work [881ED162") })
        func picture(_ body: [String]) -> [UInt8] { Array((frame + body + ["</svg>"]).joined(separator: "\n").utf8) }
        func unclipped(_ line: String) -> String { line.replacing(#/ clip-path="[^"]*"/#, with: "") }
        let drawn = try #require(try PNGCheck.render(picture([hoursLine]), counting: []).ink, "no hours drawn")
        let whole = try #require(try PNGCheck.render(picture([unclipped(hoursLine)]), counting: []).ink)
        #expect(drawn == whole, "the hours are clipped: drawn \(drawn), whole \(whole)")
        #expect(whole.right < MonthPicture.width, "the hours run out of the picture")
        let name = try #require(try PNGCheck.render(picture([nameLine]), counting: []).ink, "no name drawn")
        #expect(name.right < whole.left, "the name (to x = \(name.right)) runs into the hours (from x = \(whole.left))")
        let rendering = try PNGCheck.render(Array(svg.utf8), counting: [])
        #expect(rendering.texts.contains("3.00 h"))
        #expect(rendering.texts.contains { $0.hasPrefix("Work [881ED162") && $0.hasSuffix("…") }, "\(rendering.texts)")
    }

    @Test("the legend's hours add up to the title's total")
    func legendAddsUp() throws {
        let tags = MonthPictureTests.tags(3)
        // Three tags of 20 minutes each: 0.33 h each, as their rows show, and 0.99 h together.
        let records = (0..<3).map { index in
            let start = MonthPictureTests.firstOfMarch + Int64(index) * Self.hour
            return ReportRecord(id: "R\(index)", start: start, end: start + 20 * 60_000, tagID: "T\(index)", comment: "", imageCount: 0)
        }
        let report = MonthReport(month: MonthPictureTests.march, records: records, tags: tags, timeZone: .utc, now: 0)
        let rendering = try PNGCheck.render(MonthPicture.bytes(report), counting: [])
        #expect(rendering.texts.first == "2024-03: 0.99 h (1:00)")
        let legend = rendering.texts.filter { $0.hasSuffix(" h") && $0.contains(".") && !$0.hasPrefix("2024") }.compactMap { $0.split(separator: " ").dropLast().last.flatMap { Decimal(string: String($0)) } }
        #expect(legend == [Decimal(string: "0.33"), Decimal(string: "0.33"), Decimal(string: "0.33")], "\(rendering.texts)")
        #expect(legend.reduce(0, +) == Decimal(string: "0.99"))
    }

    /// New York, 2023-04: a record the phone (in UTC) filed in April starts on the evening of March 31
    /// in the store's time zone: it was in the title's total (614.55 h) but on no bar (613.72 h).
    @Test("a record held by this month but starting in the previous one: the note says how much of the total is not drawn")
    func recordFromThePreviousMonth() throws {
        let newYork = try #require(StoreTimeZone(identifier: "America/New_York"))
        let april = try #require(Month(year: 2023, month: 4))
        let start = try #require(ISO8601.milliseconds(from: "2023-04-01T03:10:00Z"))  // 23:10 on March 31 in New York
        let inApril = try #require(ISO8601.milliseconds(from: "2023-04-03T13:00:00Z"))
        let records = [
            ReportRecord(id: "EVENING", start: start, end: start + 50 * 60_000, tagID: "T0", comment: "", imageCount: 0),  // to 00:00
            ReportRecord(id: "LATE", start: start + 30 * 60_000, end: start + 80 * 60_000, tagID: "T0", comment: "", imageCount: 0),  // 23:40 to 00:30
            ReportRecord(id: "DAY", start: inApril, end: inApril + 2 * Self.hour, tagID: "T0", comment: "", imageCount: 0),
        ]
        let report = MonthReport(month: april, records: records, tags: MonthPictureTests.tags(1), timeZone: newYork, now: 0)
        let layout = MonthPicture.layout(report)
        let drawn = layout.bars.flatMap { $0 }.reduce(0.0) { $0 + $1.milliseconds }
        #expect(Int64(drawn.rounded()) == 2 * Self.hour + 30 * 60_000)
        #expect(layout.outside == 70 * 60_000)
        #expect(Int64(drawn.rounded()) + layout.outside == report.total)
        let rendering = try PNGCheck.render(MonthPicture.bytes(report), counting: [])
        // 50 min (0.83 h), 50 min (0.83 h) and 2 h: their rows' sum.
        #expect(rendering.texts.first == "2023-04: 3.66 h (3:40)")
        #expect(rendering.texts.contains("⚠ 1.17 h of the total lie outside this month's days: not drawn."), "\(rendering.texts.suffix(2))")
    }
}

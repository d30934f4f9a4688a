import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// SPEC 5b and 9: nothing a device can write makes a rendered file big or
/// slow. Each row is a month of extreme values; every file rendered from it (picture, hours by tag,
/// year summary; the per-record timesheet and text report only have to render) stays under 1 MiB,
/// and the picture's day bars hold at most 24 hours on an axis of at most 24 hours.
struct RenderingBoundsTests {
    static let mebibyte = 1 << 20
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000
    /// 2025-01-01T00:00:00Z: the clock for running timers.
    static let now: Int64 = 1_735_689_600_000
    static let berlin = StoreTimeZone(identifier: "Europe/Berlin")!

    static func instant(_ text: String) -> Int64 {
        ISO8601.milliseconds(from: text) ?? 0
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var month: Month
        var records: [ReportRecord]
        var tags: [ReportTag]
        var timeZone: StoreTimeZone = .utc
        var testDescription: String { name }
    }

    static func record(_ id: String, _ start: Int64?, _ end: Int64?, tag: String? = "T0", comment: String = "") -> ReportRecord {
        ReportRecord(id: id, start: start, end: end, tagID: tag, comment: comment, imageCount: 0)
    }

    static let threeTags = (0..<3).map { ReportTag(id: "T\($0)", name: "Tag \($0)", color: ["#E53935", "#1E88E5", "#43A047"][$0]) }
    static let march = Month(year: 2024, month: 3)!
    static let fifteenth = instant("2024-03-15T09:00:00Z")

    static let cases: [Case] = [
        Case(name: "an end in 9999 (a phone's typo)", month: march,
             records: [record("R", fifteenth, instant("9999-12-31T23:59:59.999Z"))], tags: threeTags),
        Case(name: "an end in 2100", month: march,
             records: [record("R", fifteenth, instant("2100-01-01T00:00:00Z")), record("S", fifteenth - day, fifteenth - day + 2 * hour, tag: "T1")],
             tags: threeTags),
        Case(name: "year 1", month: Month(year: 1, month: 1)!,
             records: [record("R", instant("0001-01-01T00:00:00Z"), instant("0001-01-01T08:00:00Z")),
                       record("S", instant("0001-01-31T22:00:00Z"), instant("9999-12-31T23:59:59.999Z"), tag: "T1")],
             tags: threeTags, timeZone: berlin),
        Case(name: "year 9999", month: Month(year: 9999, month: 12)!,
             records: [record("R", instant("9999-12-31T20:00:00Z"), instant("9999-12-31T23:59:59.999Z")),
                       record("S", instant("9999-12-01T00:00:00Z"), nil, tag: "T1")],
             tags: threeTags, timeZone: berlin),
        Case(name: "a duration of 8,000 years", month: Month(year: 1001, month: 3)!,
             records: [record("R", instant("1001-03-10T10:00:00Z"), instant("9001-03-10T10:00:00Z"))], tags: threeTags),
        Case(name: "10,000 records of 8,000 years in one tag", month: Month(year: 1001, month: 3)!,
             records: (0..<10_000).map { record("R\($0)", instant("1001-03-10T10:00:00Z") + Int64($0) * 60_000, instant("9001-03-10T10:00:00Z")) },
             tags: threeTags),
        Case(name: "10,000 records on one day", month: march,
             records: (0..<10_000).map { record("R\($0)", fifteenth + Int64($0) * 1_000, fifteenth + Int64($0) * 1_000 + hour, tag: "T\($0 % 3)") },
             tags: threeTags),
        Case(name: "10,000 tags", month: march,
             records: (0..<10_000).map { index in
                 let start = instant("2024-03-01T00:00:00Z") + Int64(index % 31) * day + Int64(index % 7) * hour
                 return record("R\(index)", start, start + 2 * hour, tag: "T\(index)")
             },
             tags: (0..<10_000).map { ReportTag(id: "T\($0)", name: "Tag number \($0)", color: "#" + String(format: "%06X", $0 * 1_677)) }),
        Case(name: "10,000 tags, each all month long", month: march,
             records: (0..<10_000).map { record("R\($0)", instant("2024-03-01T00:00:00Z"), instant("2024-04-01T00:00:00Z"), tag: "T\($0)") },
             tags: (0..<10_000).map { ReportTag(id: "T\($0)", name: "Tag number \($0)", color: "#" + String(format: "%06X", $0 * 1_677)) }),
        Case(name: "16 MiB comments", month: march,
             records: [record("R", fifteenth, fifteenth + hour, comment: String(repeating: "comment, \"quoted\"\n", count: (16 << 20) / 18)),
                       record("S", fifteenth + hour, fifteenth + 2 * hour, comment: String(repeating: "x", count: 16 << 20))],
             tags: threeTags),
        Case(name: "a running timer started in year 1", month: Month(year: 1, month: 1)!,
             records: [record("R", instant("0001-01-01T00:00:00Z"), nil)], tags: threeTags, timeZone: berlin),
        Case(name: "integer times at the ends of Int64", month: march,
             records: [record("R", Int64.min, Int64.max), record("S", Int64.max, Int64.min), record("T", Int64.max - 1, nil),
                       record("U", fifteenth, Int64.max)],
             tags: threeTags, timeZone: berlin),
    ]

    /// What the picture draws, read from the SVG: the hours of its axis labels, the pixels of one hour,
    /// and the height in pixels of each day's stacked bar (rects standing on the axis, by x).
    struct PictureGeometry {
        var axisLabels: [Int] = []
        var pixelsPerHour: Double = 0
        var barHeights: [Double: Double] = [:]
        var lineCount = 0
        var elementCount = 0
        var height = 0.0
    }

    static func attribute(_ name: String, in element: Substring) -> Double? {
        guard let range = element.range(of: " \(name)=\"") else { return nil }
        let rest = element[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return Double(rest[..<end])
    }

    static func geometry(_ svg: String) -> PictureGeometry {
        var result = PictureGeometry()
        let elements = svg.split(separator: "<").map { "<" + $0 }
        result.elementCount = elements.count
        result.lineCount = elements.filter { $0.hasPrefix("<line") }.count
        result.height = elements.first { $0.hasPrefix("<svg") }.flatMap { attribute("height", in: Substring($0)) } ?? 0
        var axis: [(hours: Int, y: Double)] = []
        for element in elements where element.hasPrefix("<text") && element.contains("text-anchor=\"end\"") {
            guard let close = element.firstIndex(of: ">"), element.hasSuffix(" h"), let y = attribute("y", in: Substring(element)) else { continue }
            let label = element[element.index(after: close)...].dropLast(2)
            if let hours = Int(label) { axis.append((hours, y)) }
        }
        result.axisLabels = axis.map(\.hours)
        guard let zero = axis.first(where: { $0.hours == 0 }), let top = axis.max(by: { $0.hours < $1.hours }), top.hours > 0 else { return result }
        result.pixelsPerHour = (zero.y - top.y) / Double(top.hours)
        let baseline = zero.y - 4  // the label sits 4 px below its gridline
        for element in elements where element.hasPrefix("<rect") {
            let element = Substring(element)
            guard let x = attribute("x", in: element), let y = attribute("y", in: element),
                  let width = attribute("width", in: element), let height = attribute("height", in: element),
                  width < 25, y + height <= baseline + 0.05, y + height > baseline - 300 else { continue }
            result.barHeights[x, default: 0] += height
        }
        return result
    }

    @Test("every report file of a month of extreme values stays under 1 MiB; each day's bar holds at most 24 hours", arguments: cases)
    func reportFilesAreBounded(_ row: Case) throws {
        let report = MonthReport(month: row.month, records: row.records, tags: row.tags, timeZone: row.timeZone, now: Self.now)
        let picture = MonthPicture.bytes(report)
        let byTag = TagSummaryCSV.bytes(report)
        let summary = YearSummaryCSV.bytes([report], tags: row.tags)
        #expect(picture.count < Self.mebibyte, "MM.svg: \(picture.count) bytes")
        #expect(byTag.count < Self.mebibyte, "MM-by-tag.csv: \(byTag.count) bytes")
        #expect(summary.count < Self.mebibyte, "summary.csv: \(summary.count) bytes")
        // Per record: they grow with the records and their comments, and only have to render.
        let comments = row.records.reduce(0) { $0 + $1.comment.utf8.count }
        let timesheet = TimesheetCSV.bytes(report)
        #expect(timesheet.count < Self.mebibyte + 2 * comments + 200 * row.records.count, "MM.csv: \(timesheet.count) bytes")
        let text = ReportText.month(report) + ReportText.year([report], tags: row.tags)
        #expect(text.utf8.count < Self.mebibyte + 200 * row.records.count, "text report: \(text.utf8.count) bytes")

        let geometry = Self.geometry(String(decoding: picture, as: UTF8.self))
        #expect(geometry.axisLabels.count >= 2 && geometry.axisLabels.count <= 9, "axis labels: \(geometry.axisLabels)")
        #expect((geometry.axisLabels.max() ?? 0) <= 24, "the axis reaches \(geometry.axisLabels.max() ?? 0) h")
        #expect(geometry.lineCount <= 12, "\(geometry.lineCount) lines")
        #expect(geometry.height <= 1_000, "the picture is \(geometry.height) px high")
        #expect(geometry.elementCount <= 3_000, "\(geometry.elementCount) elements")
        #expect(geometry.barHeights.count <= row.month.dayCount)
        for (x, height) in geometry.barHeights.sorted(by: { $0.key < $1.key }) {
            #expect(height <= 24 * geometry.pixelsPerHour + 0.1, "the bar at x=\(x) is \(height / geometry.pixelsPerHour) h")
        }
        // The same from the picture's layout: each day at most 24 hours in at most legendLimit segments.
        let layout = MonthPicture.layout(report)
        #expect(layout.legend.count <= MonthPicture.legendLimit)
        #expect(layout.axisHours <= 24)
        for (index, day) in layout.bars.enumerated() {
            #expect(day.count <= MonthPicture.legendLimit)
            #expect(day.reduce(0) { $0 + $1.milliseconds } <= Double(Self.day) * (1 + 1e-12), "day \(index + 1)")
        }
        if row.records.contains(where: { $0.end == nil && ($0.start ?? .max) < Self.now - Self.day }) {
            #expect(String(decoding: picture, as: UTF8.self).contains("running for more than a day"), "a long-running timer is flagged")
        }
    }

    @Test("durations, hours and shares of totals near the end of Int64 are shown without trapping", arguments: [
        (Int64(0), Int64(1), "0.0%"), (1, 3, "33.3%"), (1, 2, "50.0%"), (Int64.max / 2, Int64.max, "50.0%"),
        (Int64.max, Int64.max, "100.0%"), (2_500_000_000_000_000_000, 3_000_000_000_000_000_000, "83.3%"), (-5, 10, "0.0%"),
    ] as [(Int64, Int64, String)])
    func sharesOfHugeTotals(part: Int64, whole: Int64, expected: String) {
        #expect(ReportDuration.share(part, of: whole) == expected)
    }

    @Test("hours and H:MM of Int64.max milliseconds (292 million years) are shown, not trapped on")
    func hoursOfInt64Max() {
        // 9223372036854775807 ms = 256204778801521 x 36000 + 19807: a remainder of at least half a
        // hundredth rounds up; = 153722867280912 x 60000 + 55807: the minute rounds up too.
        #expect(ReportDuration.hours(.max) == "2562047788015.22")
        #expect(ReportDuration.hoursAndMinutes(.max) == "2562047788015:13")
    }

    // MARK: A store with extreme values: what the mount shows, history and the log

    static let yearOneID = "0A000000-0000-4000-8000-000000000001"
    static let timerID = "0A000000-0000-4000-8000-000000000002"
    static let lastDayID = "0A000000-0000-4000-8000-000000000003"
    static let outOfRangeID = "0A000000-0000-4000-8000-000000000004"
    static let integerTimesID = "0A000000-0000-4000-8000-000000000005"

    /// A month document with the given records (`startTime`, `endTime`: nil leaves the key out),
    /// each change stamped `changeTime`, saved into the store's folder.
    static func writeDocument(_ records: [(id: String, start: ScalarValue?, end: ScalarValue?)], changeTime: Int64, to path: String) throws {
        var document = Document()
        for record in records {
            let object = try document.putObject(.map, forKey: record.id)
            if let start = record.start { try document.put(start, forKey: "startTime", in: object) }
            if let end = record.end { try document.put(end, forKey: "endTime", in: object) }
            try document.put(.string("T"), forKey: "comment", in: object)
            _ = try document.putObject(.list, forKey: "images", in: object)
            _ = document.commit(time: changeTime)
        }
        try document.put(.string("edited"), forKey: "comment", in: try #require(RecordViewProbe.object(records[0].id, in: document)))
        _ = document.commit(time: changeTime)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(document.save()).write(to: URL(fileURLWithPath: path))
    }

    /// Every file under `folder` of the tree, with its size (reading each renders it).
    static func fileSizes(_ tree: StoreView, under folder: String) throws -> [(path: String, size: Int)] {
        var result: [(path: String, size: Int)] = []
        for entry in try tree.entries(inDirectory: folder) {
            let path = folder + "/" + entry.name
            if entry.isDirectory {
                result += try fileSizes(tree, under: path)
            } else {
                result.append((path, try tree.contents(ofPath: path).count))
            }
        }
        return result
    }

    @Test("years 1 and 9999, a timer running since year 1 and change times at the end of Int64: record files, reports, history and the log render, each under 1 MiB")
    func storeWithExtremeValues() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let changeTime: Int64 = 1_735_000_000_000
            try Self.writeDocument([
                (Self.yearOneID, .timestamp(Self.instant("0001-01-01T00:00:00Z")), .timestamp(Self.instant("9999-12-31T23:59:59.999Z"))),
                (Self.timerID, .timestamp(Self.instant("0001-01-01T00:00:00Z")), nil),
            ], changeTime: changeTime, to: path + "/records/0001/01.automerge")
            try Self.writeDocument([
                (Self.lastDayID, .timestamp(Self.instant("9999-12-31T22:00:00Z")), .timestamp(Self.instant("9999-12-31T23:59:59.999Z"))),
                (Self.outOfRangeID, .timestamp(Int64.max), .timestamp(Int64.min)),
                (Self.integerTimesID, .int(Int64.min), .int(Int64.max)),
            ], changeTime: Int64.max, to: path + "/records/9999/12.automerge")
            let store = try Store(folder: FilePath(path), timeZone: Self.berlin)
            let tree = StoreView(store: store)

            var sizes = try Self.fileSizes(tree, under: "/records/0001") + Self.fileSizes(tree, under: "/records/9999")
            #expect(sizes.count >= 5, "\(sizes.map(\.path))")
            sizes += try Self.fileSizes(tree, under: "/reports/0001") + Self.fileSizes(tree, under: "/reports/9999")
            #expect(sizes.filter { $0.path.hasPrefix("/reports/") }.count == 8)
            let days = try tree.entries(inDirectory: "/.minutafs/history").map(\.name)
            #expect(days.contains("2024-12-24"), "\(days.suffix(3))")
            for snapshot in ["/.minutafs/history/2024-12-24", "/.minutafs/history/2025-01-01T00:00Z"] {
                let files = try Self.fileSizes(tree, under: snapshot + "/records/0001")
                #expect(files.count == 2, "\(snapshot): \(files.map(\.path))")
                sizes += files
                sizes.append((snapshot + "/tags.json", try tree.contents(ofPath: snapshot + "/tags.json").count))
            }
            for (file, size) in sizes {
                #expect(size < Self.mebibyte, "\(file): \(size) bytes")
            }

            for id in [Self.yearOneID, Self.timerID, Self.lastDayID, Self.outOfRangeID, Self.integerTimesID] {
                let log = try RecordLog(recordID: id, in: store)
                #expect(log.entries.count >= 1, "\(id)")
                let lines = log.lines() + log.jsonLines()
                #expect(lines.count == 2 * log.entries.count)
                for line in lines { #expect(line.utf8.count < Self.mebibyte) }
            }
        }
    }
}

/// The record map of a document, as the mount finds it: here so that the test builds documents
/// without the store's own helpers.
enum RecordViewProbe {
    static func object(_ key: String, in document: Document) -> ObjectID? {
        guard case .object(let id, .map)? = document.value(of: .root, key: key) else { return nil }
        return id
    }
}

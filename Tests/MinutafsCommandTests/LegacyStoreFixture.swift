import Foundation
import TestSupport

/// A legacy, pre-Automerge store written by the tests (seed 001's formats): tags.json and one
/// JSON file per record, with dates in several ISO 8601 forms, running timers, unicode comments,
/// extra keys and images, across years and months.
struct LegacyStoreFixture {
    struct Tag {
        var id: String, name: String, color: String, createdAt: Int64, isArchived: Bool
    }

    struct Record {
        var id: String
        var startTime: Int64
        var endTime: Int64?
        var tagId: String?
        var comment: String?
        var images: [String]
        /// The file, relative to the store.
        var file: String
        /// The JSON text as written (dates in the form the test chose).
        var json: String
    }

    var tags: [Tag] = []
    var records: [Record] = []
    /// Image files (relative path) and their bytes.
    var images: [(path: String, bytes: [UInt8])] = []

    /// Milliseconds of a UTC date-time.
    static func ms(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int = 0, _ millisecond: Int = 0) -> Int64 {
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return Int64(calendar.date(from: components)!.timeIntervalSince1970) * 1000 + Int64(millisecond)
    }

    static func iso(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = milliseconds % 1000 == 0 ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    static func quoted(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    /// The standard fixture: 3 tags and 50 records from December 2023 to March 2025 (UTC).
    static func standard() -> LegacyStoreFixture {
        var fixture = LegacyStoreFixture()
        let work = "550e8400-e29b-41d4-a716-446655440000" // lower-case, as in seed 001
        let cafe = "6F9619FF-8B86-D011-B42D-00C04FC964FF"
        let old = "7C9E6679-7425-40DE-944B-E07FC1F90AE7"
        fixture.tags = [
            Tag(id: work, name: "Work", color: "#4A90D9", createdAt: ms(2023, 1, 1, 0, 0), isArchived: false),
            Tag(id: cafe, name: "Café ☕ „Pause“", color: "#E67E22", createdAt: ms(2023, 2, 1, 8, 15, 30, 250), isArchived: false),
            Tag(id: old, name: "Old client", color: "#7F8C8D", createdAt: ms(2022, 6, 1, 12, 0), isArchived: true),
        ]
        var generator = SeededGenerator(seed: 42)
        func uuid() -> String {
            let hex = (0..<16).map { _ in String(format: "%02X", UInt8.random(in: 0...255, using: &generator)) }.joined()
            let c = Array(hex)
            return String(c[0..<8]) + "-" + String(c[8..<12]) + "-4" + String(c[13..<16]) + "-A" + String(c[17..<20]) + "-" + String(c[20..<32])
        }
        func add(id: String = uuid(), start: Int64, end: Int64?, tag: String?, comment: String?, images: [String] = [],
                 startText: String? = nil, endText: String? = nil, folder: String? = nil, extra: String = "", explicitNull: Bool = false) {
            let startValue = startText ?? quoted(iso(start))
            var members = ["  \"id\": \(quoted(id))", "  \"startTime\": \(startValue)"]
            if let end { members.append("  \"endTime\": \(endText ?? quoted(iso(end)))") } else if explicitNull { members.append("  \"endTime\": null") }
            if let tag { members.append("  \"tagId\": \(quoted(tag))") }
            if let comment { members.append("  \"comment\": \(quoted(comment))") }
            members.append("  \"images\": [" + images.map(quoted).joined(separator: ", ") + "]")
            if !extra.isEmpty { members.append(extra) }
            let date = Date(timeIntervalSince1970: Double(start) / 1000)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let monthFolder = folder ?? String(format: "records/%04d/%02d", c.year!, c.month!)
            let name = String(format: "%04d-%02d-%02d_%02d%02d%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
            let file = monthFolder + "/" + name + "_" + id.prefix(8) + ".json"
            fixture.records.append(Record(id: id, startTime: start, endTime: end, tagId: tag, comment: comment, images: images,
                                          file: file, json: "{\n" + members.joined(separator: ",\n") + "\n}\n"))
        }
        // Across a year boundary: filed in December by its start.
        add(start: ms(2023, 12, 31, 23, 30), end: ms(2024, 1, 1, 0, 30), tag: work, comment: "New Year's Eve deploy 🎆")
        // Running timers: endTime absent, and endTime null.
        add(start: ms(2025, 3, 10, 8, 0), end: nil, tag: work, comment: "Still running")
        add(start: ms(2025, 3, 9, 7, 0), end: nil, tag: nil, comment: nil, explicitNull: true)
        // Unicode and a line break in the comment; a lower-case tag id.
        add(start: ms(2024, 1, 15, 9, 30), end: ms(2024, 1, 15, 11, 45), tag: work,
            comment: "Besprechung mit Jörg — 東京 🚀\nzweite Zeile \"zitiert\"")
        // Images in the record's month folder.
        let withImages = uuid()
        add(id: withImages, start: ms(2024, 2, 3, 14, 0), end: ms(2024, 2, 3, 15, 0), tag: cafe, comment: "Photos",
            images: [withImages + "_0.jpg", withImages + "_1.png"])
        fixture.images.append(("records/2024/02/\(withImages)_0.jpg", [0xFF, 0xD8, 0xFF, 0xE0] + Array("a jpeg".utf8) + [0xFF, 0xD9]))
        fixture.images.append(("records/2024/02/\(withImages)_1.png", [0x89, 0x50, 0x4E, 0x47] + Array("a png".utf8)))
        // Dates in other forms: fractional seconds, offsets with and without a colon, integer milliseconds.
        add(start: ms(2024, 2, 29, 12, 0, 0, 123), end: ms(2024, 2, 29, 13, 0, 0, 5), tag: nil, comment: "Leap day",
            startText: "\"2024-02-29T12:00:00.123Z\"", endText: "\"2024-02-29T13:00:00.005000Z\"")
        add(start: ms(2024, 1, 16, 9, 30), end: ms(2024, 1, 16, 10, 0), tag: cafe, comment: "Offsets",
            startText: "\"2024-01-16T10:30:00+01:00\"", endText: "\"2024-01-16T05:00:00-0500\"")
        add(start: ms(2024, 1, 17, 9, 30), end: ms(2024, 1, 17, 10, 0), tag: old, comment: "Milliseconds",
            startText: String(ms(2024, 1, 17, 9, 30)))
        // A device in UTC+1 filed this one in April; in UTC it starts in March, and its image follows.
        let misfiled = uuid()
        add(id: misfiled, start: ms(2024, 3, 31, 23, 30), end: ms(2024, 4, 1, 0, 15), tag: work, comment: "Filed in April",
            images: [misfiled + "_0.jpg"], folder: "records/2024/04")
        fixture.images.append(("records/2024/04/\(misfiled)_0.jpg", [0xFF, 0xD8] + Array("misfiled".utf8) + [0xFF, 0xD9]))
        // Two records in the same second.
        add(start: ms(2024, 5, 5, 10, 0), end: ms(2024, 5, 5, 11, 0), tag: work, comment: "Twin A")
        add(start: ms(2024, 5, 5, 10, 0), end: ms(2024, 5, 5, 10, 30), tag: nil, comment: "Twin B")
        // The bulk: 39 records over 2024.
        for index in 0..<39 {
            let start = ms(2024, 1 + index % 12, 1 + index % 27, 8 + index % 9, (index * 7) % 60)
            add(start: start, end: start + Int64(30 + index) * 60_000, tag: index % 4 == 0 ? nil : [work, cafe, old][index % 3],
                comment: index % 3 == 0 ? nil : "Task \(index): naïve café résumé")
        }
        return fixture
    }

    var tagsJSON: String {
        let entries = tags.map { tag in
            "    {\n      \"id\": \(Self.quoted(tag.id)),\n      \"name\": \(Self.quoted(tag.name)),\n      \"color\": \(Self.quoted(tag.color)),\n"
                + "      \"createdAt\": \(Self.quoted(Self.iso(tag.createdAt))),\n      \"isArchived\": \(tag.isArchived)\n    }"
        }
        return "{\n  \"tags\": [\n" + entries.joined(separator: ",\n") + "\n  ]\n}\n"
    }

    /// Writes the store into `folder` (created).
    func write(to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(tagsJSON.utf8).write(to: URL(fileURLWithPath: folder + "/tags.json"))
        for record in records {
            let path = folder + "/" + record.file
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(record.json.utf8).write(to: URL(fileURLWithPath: path))
        }
        for image in images {
            try Data(image.bytes).write(to: URL(fileURLWithPath: folder + "/" + image.path))
        }
    }

    // MARK: Reading a legacy store back

    /// Every record JSON file under `folder/records/`, parsed, keyed by upper-cased id.
    static func readRecords(in folder: String) throws -> [String: [String: Any]] {
        var result: [String: [String: Any]] = [:]
        let base = folder + "/records"
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [:] }
        for case let relative as String in enumerator where relative.hasSuffix(".json") {
            let data = try Data(contentsOf: URL(fileURLWithPath: base + "/" + relative))
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let id = object["id"] as? String else {
                throw FixtureError("records/\(relative): not a record object")
            }
            var entry = object
            entry["_file"] = "records/" + relative
            result[id.uppercased()] = entry
        }
        return result
    }

    /// The tags of `folder/tags.json`, keyed by upper-cased id.
    static func readTags(in folder: String) throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/tags.json"))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let tags = object["tags"] as? [[String: Any]] else {
            throw FixtureError("\(folder)/tags.json: not {\"tags\": [...]}")
        }
        var result: [String: [String: Any]] = [:]
        for tag in tags { result[(tag["id"] as? String ?? "").uppercased()] = tag }
        return result
    }

    /// Milliseconds of an ISO 8601 date the export wrote (`Z`, optional fraction).
    static func milliseconds(_ value: Any?) -> Int64? {
        guard let text = value as? String else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        guard let date = formatter.date(from: text) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}

import MinutaStore
import AutomergeKit

/// Writes a sample store to try minutafs on (`minutafs demo DIR`): a handful of tags, a year of
/// time records written as two devices (a phone and a laptop) would write them, comments in
/// several languages (some stored as text objects, one on several lines), a few small images, one
/// running timer, and one Dropbox conflict copy of a month document with a concurrent edit
/// waiting to be merged. The same seed, time and time zone give the same store, byte for byte.
public enum DemoStore {
    public struct Summary: Sendable, Equatable {
        public var tags = 0
        public var records = 0
        /// Comments stored as text objects rather than strings.
        public var textComments = 0
        public var images = 0
        public var runningTimers = 0
        /// Month documents written.
        public var months = 0
        /// The conflict copy, relative to the store.
        public var conflictCopy = ""
    }

    struct DemoRecord {
        var id: String
        var start: Int64
        var end: Int64?
        var tag: Int?
        var comment: String?
        var commentAsText = false
        var images: [String] = []
        var device: Int
    }

    static let tags: [(name: String, color: String, archived: Bool)] = [
        ("Work", "#4A90D9", false), ("Meetings", "#E67E22", false), ("Exercise", "#27AE60", false),
        ("Reading", "#8E44AD", false), ("Side project", "#C0392B", false), ("Old client", "#7F8C8D", true),
    ]

    static let comments: [[String]] = [
        ["Code review", "Sprint planning prep", "Fixing the sync bug", "Release notes for 2.3", "Refactoring the export",
         "Customer ticket #4711", "Performance profiling", "Écrire la documentation", "Onboarding Jörg",
         "Deploy to staging 🚀", "Design review: settings screen", "Notes:\n- fix the \"Save\" button\n- answer Ana's mail"],
        ["Weekly sync", "1:1 with María", "Planning — Q3 roadmap", "Retro", "Call with the 東京 team", "Budget review"],
        ["Run 5 km 🏃", "Swimming", "Yoga", "Cycling to the lake", "Gym: legs"],
        ["„Der Zauberberg“, ch. 3", "The Pragmatic Programmer", "Articles on CRDTs", "Café ☕ and a novel"],
        ["Minuta FUSE experiments", "Garden planner app", "Blog post draft"],
        ["Migration for Müller & Co", "Invoice corrections"],
    ]
    static let untaggedComments = ["Admin: expenses", "Dentist 🦷", "Taxes"]

    /// Writes the demo store into `path`, which must not exist or be an empty folder.
    ///
    /// - Parameters:
    ///   - seed: picks the records; the same seed gives the same store.
    ///   - now: the demo's present, in milliseconds: records cover the 365 days before its day, and
    ///     the running timer started 42 minutes before it.
    ///   - timeZone: the zone the records' days and months are in.
    /// - Throws: ``StoreError/notEmpty(_:)`` for a folder that holds anything, or a write that fails.
    public static func write(to path: String, seed: UInt64, now: Int64, timeZone: StoreTimeZone) throws(StoreError) -> Summary {
        if let status = BackingFiles.status(path) {
            guard status.isDirectory else { throw .alreadyExists(path) }
            guard try BackingFiles.listDirectory(path).isEmpty else { throw .notEmpty(path) }
        }
        var random = DemoRandom(seed: seed)
        let devices = (0..<3).map { _ in ActorID(bytes: random.actorBytes()) } // phone, laptop, tablet
        let tagIDs = tags.map { _ in random.uuid() }
        var records = makeRecords(now: now, timeZone: timeZone, tagIDs: tagIDs, random: &random)
        attachImages(to: &records, random: &random)

        var summary = Summary()
        try BackingFiles.makeDirectories(BackingFiles.absolutePath(path))
        let store = BackingFiles.absolutePath(path)

        // Tags: created by the phone over the weeks before the first record.
        var tagsDocument = Document(actor: devices[0])
        let firstStart = records.map(\.start).min() ?? now
        for (index, tag) in tags.enumerated() {
            do {
                let object = try tagsDocument.putObject(.map, forKey: tagIDs[index])
                try tagsDocument.put(.string(tag.name), forKey: "name", in: object)
                try tagsDocument.put(.string(tag.color), forKey: "color", in: object)
                let created = firstStart - Int64(40 - index * 5) * 86_400_000
                try tagsDocument.put(.timestamp(created), forKey: "createdAt", in: object)
                try tagsDocument.put(.boolean(false), forKey: "isArchived", in: object)
                tagsDocument.commit(time: created / 1000)
            } catch {
                throw .documentOperationFailed(file: DocumentName.tagsPath, operation: "writing the demo tags", cause: error)
            }
        }
        if let archived = tags.firstIndex(where: \.archived), case .object(let object, .map)? = tagsDocument.value(of: .root, key: tagIDs[archived]) {
            tagsDocument.setActor(devices[1])
            do { try tagsDocument.put(.boolean(true), forKey: "isArchived", in: object) } catch {}
            tagsDocument.commit(time: (firstStart + 60 * 86_400_000) / 1000)
        }
        try BackingFiles.writeAtomically(Self.saved(&tagsDocument, as: DocumentName.tagsPath), to: store + "/" + DocumentName.tagsPath)
        summary.tags = tags.count

        // One document per month, one change per record, as the device that made it.
        var byMonth: [Month: [DemoRecord]] = [:]
        for record in records {
            guard let month = timeZone.month(ofMilliseconds: record.start) else { continue }
            byMonth[month, default: []].append(record)
        }
        var documents: [Month: Document] = [:]
        for (month, monthRecords) in byMonth {
            var document = Document(actor: devices[0])
            for record in monthRecords.sorted(by: { $0.start < $1.start }) {
                document.setActor(devices[record.device])
                do { try write(record, tagIDs: tagIDs, into: &document) } catch {
                    throw .documentOperationFailed(file: month.documentPath, operation: "writing the demo records", cause: error)
                }
                document.commit(time: (record.end ?? record.start) / 1000)
                summary.records += 1
                if record.end == nil { summary.runningTimers += 1 }
                if record.commentAsText { summary.textComments += 1 }
            }
            documents[month] = document
        }

        // The conflict copy: last month's document, edited on the laptop and, offline, on the tablet.
        let today = ISO8601.components(milliseconds: now, offsetSeconds: timeZone.offsetSeconds(atMilliseconds: now))
        let lastMonth = Month(year: today.month == 1 ? today.year - 1 : today.year, month: today.month == 1 ? 12 : today.month - 1)
        if let lastMonth, var primary = documents[lastMonth] {
            var copy = primary.fork(actor: devices[2])
            let candidates = (byMonth[lastMonth] ?? []).filter { $0.comment != nil && !$0.commentAsText && $0.end != nil }.sorted { $0.start < $1.start }
            if let edited = candidates.last, case .object(let object, .map)? = primary.value(of: .root, key: edited.id),
               case .object(let copyObject, .map)? = copy.value(of: .root, key: edited.id) {
                let comment = edited.comment ?? ""
                primary.setActor(devices[1])
                do {
                    try primary.put(.string(comment + " (edited on the laptop)"), forKey: RecordField.comment.key, in: object)
                    try copy.put(.string(comment + " (edited on the tablet)"), forKey: RecordField.comment.key, in: copyObject)
                    let start = edited.start + 3_600_000
                    let late = DemoRecord(id: random.uuid(), start: start, end: start + 45 * 60_000, tag: 1,
                                          comment: "Added on the tablet while offline", device: 2)
                    try write(late, tagIDs: tagIDs, into: &copy)
                } catch {
                    throw .documentOperationFailed(file: lastMonth.documentPath, operation: "writing the demo records", cause: error)
                }
                primary.commit(time: now / 1000 - 7200)
                copy.commit(time: now / 1000 - 5400)
                documents[lastMonth] = primary
                let stamp = "\(ISO8601.pad(today.year, 4))-\(ISO8601.pad(today.month, 2))-\(ISO8601.pad(today.day, 2))"
                summary.conflictCopy = "records/\(lastMonth.yearName)/\(lastMonth.monthName) (Tablet's conflicted copy \(stamp)).automerge"
                try BackingFiles.makeDirectories(store + "/records/" + lastMonth.yearName)
                try BackingFiles.writeAtomically(Self.saved(&copy, as: summary.conflictCopy), to: store + "/" + summary.conflictCopy)
            }
        }
        for (month, var document) in documents.sorted(by: { $0.key < $1.key }) {
            try BackingFiles.makeDirectories(store + "/records/" + month.yearName)
            try BackingFiles.writeAtomically(Self.saved(&document, as: month.documentPath), to: store + "/" + month.documentPath)
            summary.months += 1
        }

        // Images beside the documents, in the month folder of their record.
        for record in records where !record.images.isEmpty {
            guard let month = timeZone.month(ofMilliseconds: record.start) else { continue }
            try BackingFiles.makeDirectories(store + "/" + month.folderPath)
            for name in record.images {
                let colour: DemoImage.Colour = (UInt8.random(in: 40...230, using: &random), UInt8.random(in: 40...230, using: &random),
                                                UInt8.random(in: 40...230, using: &random))
                let bytes = name.hasSuffix(".png") ? DemoImage.png(from: colour, to: (255 - colour.red, 255 - colour.green, 200))
                    : DemoImage.jpeg(colour)
                try BackingFiles.writeNewFile(bytes, to: store + "/" + month.folderPath + "/" + name)
                summary.images += 1
            }
        }
        return summary
    }

    /// The document's full save; a refusal (times a document chunk cannot hold) is a `StoreError` naming `file`.
    static func saved(_ document: inout Document, as file: String) throws(StoreError) -> [UInt8] {
        do { return try document.save() } catch { throw .documentOperationFailed(file: file, operation: "save", cause: error) }
    }

    static func write(_ record: DemoRecord, tagIDs: [String], into document: inout Document) throws(AutomergeError) {
        let object = try document.putObject(.map, forKey: record.id)
        try document.put(.timestamp(record.start), forKey: RecordField.startTime.key, in: object)
        if let end = record.end { try document.put(.timestamp(end), forKey: RecordField.endTime.key, in: object) }
        if let tag = record.tag { try document.put(.string(tagIDs[tag]), forKey: RecordField.tagId.key, in: object) }
        if let comment = record.comment {
            if record.commentAsText {
                let text = try document.putObject(.text, forKey: RecordField.comment.key, in: object)
                try document.spliceText(text, at: 0, delete: 0, insert: comment)
            } else {
                try document.put(.string(comment), forKey: RecordField.comment.key, in: object)
            }
        }
        let list = try document.putObject(.list, forKey: RecordField.images.key, in: object)
        for (index, name) in record.images.enumerated() { try document.insert(.string(name), at: index, in: list) }
    }

    /// A year of days: work on weekdays (with two weeks off), meetings, exercise some evenings,
    /// reading and a side project at weekends; and the running timer.
    static func makeRecords(now: Int64, timeZone: StoreTimeZone, tagIDs: [String], random: inout DemoRandom) -> [DemoRecord] {
        let c = ISO8601.components(milliseconds: now, offsetSeconds: timeZone.offsetSeconds(atMilliseconds: now))
        let today = ISO8601.days(year: c.year, month: c.month, day: c.day)
        func instant(_ day: Int, _ minute: Int) -> Int64 {
            let local = Int64(day) * 86_400_000 + Int64(minute) * 60_000
            return local - Int64(timeZone.offsetSeconds(atMilliseconds: local)) * 1000
        }
        let vacations = [Int.random(in: 40...120, using: &random), Int.random(in: 200...300, using: &random)]
        var records: [DemoRecord] = []
        func add(_ day: Int, _ start: Int, _ minutes: Int, _ tag: Int?) {
            var record = DemoRecord(id: random.uuid(), start: instant(day, start), end: instant(day, start + minutes), tag: tag, device: random.chance(0.6) ? 0 : 1)
            if random.chance(0.65) {
                let pool = tag.map { comments[$0] } ?? untaggedComments
                record.comment = pool[Int.random(in: 0..<pool.count, using: &random)]
                record.commentAsText = random.chance(0.3)
            }
            records.append(record)
        }
        for day in (today - 365)..<today {
            let weekday = ((day % 7) + 7 + 4) % 7 // 0 is Sunday: day 0, 1970-01-01, was a Thursday
            let daysAgo = today - day
            if vacations.contains(where: { (0..<10).contains(daysAgo - $0) }) { continue }
            let workTag = daysAgo > 300 && random.chance(0.3) ? 5 : 0
            if (1...5).contains(weekday) {
                var minute = Int.random(in: 500...570, using: &random)
                if random.chance(0.9) {
                    let length = Int.random(in: 150...240, using: &random)
                    add(day, minute, length, random.chance(0.04) ? nil : workTag)
                    minute += length
                }
                minute = max(minute + 40, 780)
                if random.chance(0.2) {
                    let length = Int.random(in: 30...90, using: &random)
                    add(day, minute, length, 1)
                    minute += length + 10
                }
                if random.chance(0.4) {
                    add(day, minute, Int.random(in: 120...210, using: &random), workTag)
                }
                if random.chance(0.15) { add(day, Int.random(in: 1080...1170, using: &random), Int.random(in: 30...75, using: &random), 2) }
            } else {
                if random.chance(0.25) { add(day, Int.random(in: 600...1200, using: &random), Int.random(in: 30...120, using: &random), 3) }
                if random.chance(0.1) { add(day, Int.random(in: 840...960, using: &random), Int.random(in: 60...180, using: &random), 4) }
                if random.chance(0.15) { add(day, Int.random(in: 480...600, using: &random), Int.random(in: 30...90, using: &random), 2) }
            }
        }
        let runningStart = (now / 60_000) * 60_000 - 42 * 60_000
        records.append(DemoRecord(id: random.uuid(), start: runningStart, end: nil, tag: 0, comment: "Writing the quarterly report", device: 1))
        return records
    }

    /// Six records, spread over the year, get a photo or two.
    static func attachImages(to records: inout [DemoRecord], random: inout DemoRandom) {
        let finished = records.indices.filter { records[$0].end != nil }
        guard finished.count >= 12 else { return }
        let step = finished.count / 6
        for slot in 0..<6 {
            let index = finished[slot * step + Int.random(in: 0..<step, using: &random)]
            let id = records[index].id
            records[index].images = slot == 2 ? [id + "_0.jpg", id + "_1.png"] : [id + "_0." + (slot % 2 == 0 ? "png" : "jpg")]
        }
    }
}

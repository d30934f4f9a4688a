import AutomergeKit
import MinutaDemo
import MinutaStore

/// Builds month documents the way the app does: several app sessions (each a new actor), one
/// commit per user action. Records are created, stopped, some commented (text objects), some
/// given images, some edited later and a few deleted. Deterministic for a seed.
struct MonthGenerator {
    var random: DemoRandom
    let year: Int
    let month: Int

    init(year: Int, month: Int, seed: UInt64) {
        self.year = year
        self.month = month
        random = DemoRandom(seed: seed)
    }

    static let tags = (0..<6).map { String(format6($0)) }
    static func format6(_ index: Int) -> String { "7993C5A5-14D0-4821-B976-E95BFDEB1\(100 + index)" }

    static let words = ["review", "meeting", "Zürich", "export", "pipeline", "日報", "tests", "call", "design", "✨", "notes", "deploy"]

    mutating func uuid() -> String {
        let hex = Array("0123456789ABCDEF")
        var characters: [Character] = []
        for index in 0..<32 {
            characters.append(hex[Int(random.next() % 16)])
            if [7, 11, 15, 19].contains(index) { characters.append("-") }
        }
        return String(characters)
    }

    /// Milliseconds of a moment inside the month (days 2 to 27, so every zone files it the same).
    mutating func moment() -> Int64 {
        let days = ISO8601.days(year: year, month: month, day: 2 + Int(random.next() % 26))
        return Int64(days) * 86_400_000 + Int64(random.next() % 86_400_000)
    }

    mutating func document(records count: Int, sessions: Int = 5) throws -> Document {
        var document = Document(actor: actor(0))
        var time: Int64 = Int64(ISO8601.days(year: year, month: month, day: 1)) * 86_400
        var ids: [(id: String, object: ObjectID)] = []
        let perSession = max(1, count / sessions)
        for session in 0..<sessions {
            document.setActor(actor(session))
            let end = session == sessions - 1 ? count : min(count, (session + 1) * perSession)
            for _ in ids.count..<end {
                let id = uuid()
                let start = moment()
                let record = try document.putObject(.map, forKey: id)
                try document.put(.timestamp(start), forKey: RecordField.startTime.key, in: record)
                try document.put(.string(Self.tags[Int(random.next() % 6)]), forKey: RecordField.tagId.key, in: record)
                let images = try document.putObject(.list, forKey: RecordField.images.key, in: record)
                if random.next() % 10 == 0 { try document.insert(.string(id + "_0.jpg"), at: 0, in: images) }
                time += 60
                document.commit(time: time)
                try document.put(.timestamp(start + Int64(600_000 + random.next() % 7_200_000)), forKey: RecordField.endTime.key, in: record)
                if random.next() % 3 == 0 {
                    let comment = try document.putObject(.text, forKey: RecordField.comment.key, in: record)
                    let text = (0..<(2 + Int(random.next() % 6))).map { _ in Self.words[Int(random.next() % UInt64(Self.words.count))] }.joined(separator: " ")
                    try document.spliceText(comment, at: 0, delete: 0, insert: text)
                }
                time += 60
                document.commit(time: time)
                ids.append((id, record))
            }
            // Later edits in this session: a few comments extended, a few records deleted.
            for _ in 0..<(ids.count / 20) {
                let pick = ids[Int(random.next() % UInt64(ids.count))]
                guard document.value(of: .root, key: pick.id) != nil else { continue }
                if random.next() % 8 == 0 {
                    try document.delete(forKey: pick.id)
                } else if case .object(let comment, .text)? = document.value(of: pick.object, key: RecordField.comment.key) {
                    try document.spliceText(comment, at: 0, delete: 0, insert: "TODO: ")
                } else {
                    try document.put(.boolean(true), forKey: "billable", in: pick.object)
                }
                time += 60
                document.commit(time: time)
            }
        }
        return document
    }

    func actor(_ session: Int) -> ActorID {
        ActorID(bytes: (0..<16).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ session &* 7 &+ year &+ month &* 13) })
    }
}


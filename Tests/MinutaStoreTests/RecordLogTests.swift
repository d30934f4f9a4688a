import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// `minutafs log` (SPEC section 8): every change that set or removed a field of a record, values that
/// lost a conflict included and marked, and `concurrent` on both sides of every pair of changes that
/// did not see each other, checked against the reference (`Tests/Fixtures/history/NAME.log`, made
/// with `amref dump --at` by `make-logs.py`).
struct RecordLogTests {
    /// The log of `id` in a store whose only month document is `document`, as `--json` prints it.
    static func jsonLog(of id: String, document: [UInt8]) throws -> [[String: Any]] {
        try withTemporaryDirectory { folder in
            let store = folder + "/store"
            try FileManager.default.createDirectory(atPath: store + "/records/2024", withIntermediateDirectories: true)
            try Data(document).write(to: URL(fileURLWithPath: store + "/records/2024/05.automerge"))
            let log = try RecordLog(recordID: id, in: try Store(folder: FilePath(store), timeZone: .utc))
            return try log.jsonLines().map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
        }
    }

    /// A field's value as JSON text (sorted keys), "null" when absent, to compare parsed values.
    static func text(_ value: Any?) throws -> String {
        guard let value, !(value is NSNull) else { return "null" }
        let data = try JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    @Test("the log of every record matches the reference's change list: concurrent same field, different fields, delete versus edit, three devices",
          arguments: ["concurrent-same-field.merged", "concurrent-fields.merged", "delete-vs-edit.merged", "three-way.merged"])
    func matchesReference(name: String) throws {
        let document = try Fixtures.bytes(name + ".automerge")
        let expected = try Fixtures.text(name + ".log", in: "history").split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let records = Set(expected.compactMap { $0["record"] as? String })
        #expect(!records.isEmpty)
        for record in records.sorted() {
            let wanted = expected.filter { $0["record"] as? String == record }
            let entries = try Self.jsonLog(of: record, document: document)
            #expect(entries.compactMap { $0["change"] as? String }.sorted() == wanted.compactMap { $0["change"] as? String }.sorted(),
                    "\(name) \(record)")
            for want in wanted {
                guard let change = want["change"] as? String,
                      let entry = entries.first(where: { $0["change"] as? String == change }) else { continue }
                let context = "\(name) \(record) \(change.prefix(8))"
                #expect(entry["kind"] as? String == want["kind"] as? String, "\(context)")
                let concurrentWith = (want["concurrentWith"] as? [String]) ?? []
                #expect(((entry["concurrentWith"] as? [String]) ?? []).sorted() == concurrentWith.sorted(), "\(context)")
                #expect(entry["concurrent"] as? Bool == !concurrentWith.isEmpty, "\(context)")
                let wantedFields = (want["fields"] as? [String: [String: Any]]) ?? [:]
                let fields = (entry["fields"] as? [[String: Any]]) ?? []
                #expect(fields.compactMap { $0["field"] as? String }.sorted() == wantedFields.keys.sorted(), "\(context)")
                let lost = Set((want["lost"] as? [String]) ?? [])
                for field in fields {
                    guard let fieldName = field["field"] as? String, let values = wantedFields[fieldName] else { continue }
                    #expect(try Self.text(field["old"]) == Self.text(values["old"]), "\(context) \(fieldName) old")
                    #expect(try Self.text(field["new"]) == Self.text(values["new"]), "\(context) \(fieldName) new")
                    #expect((field["lost"] as? Bool ?? false) == lost.contains(fieldName), "\(context) \(fieldName) lost")
                }
            }
        }
    }

    @Test("a laptop and a phone set one record's comment without seeing each other: both changes are listed, concurrent, the losing value marked")
    func sameFieldOnTwoDevices() throws {
        try withTemporaryDirectory { folder in
            let store = try StoreFixture.copyOfAppStore(into: folder)
            let file = store + "/records/2024/03.automerge"
            let id = HistoryTests.withImage
            var document = try Document.load(Fixtures.contents(ofFileAtPath: file))
            guard case .object(let record, .map)? = document.value(of: .root, key: id) else {
                Issue.record("no record \(id)")
                return
            }
            // Same counter: the greater actor (the phone's) wins.
            var laptop = document.fork(actor: ActorID(bytes: [UInt8](repeating: 0xAA, count: 16)))
            var phone = document.fork(actor: ActorID(bytes: [UInt8](repeating: 0xBB, count: 16)))
            try laptop.put(.string("from the laptop"), forKey: "comment", in: record)
            _ = laptop.commit(time: 1_717_000_000_000)
            try phone.put(.string("from the phone"), forKey: "comment", in: record)
            _ = phone.commit(time: 1_717_000_100_000)
            try document.merge(laptop)
            try document.merge(phone)
            try Data(document.save()).write(to: URL(fileURLWithPath: file))

            let log = try RecordLog(recordID: id, in: try Store(folder: FilePath(store), timeZone: .utc))
            let lines = log.lines()
            let laptopLine = try #require(lines.first { $0.contains(" aaaaaaaa ") }, "\(lines)")
            let phoneLine = try #require(lines.first { $0.contains(" bbbbbbbb ") }, "\(lines)")
            #expect(laptopLine.contains("(concurrent with "), "\(laptopLine)")
            #expect(phoneLine.contains("(concurrent with "), "\(phoneLine)")
            #expect(laptopLine.hasSuffix("comment: (none) -> \"from the laptop\" (lost)"), "\(laptopLine)")
            #expect(phoneLine.hasSuffix("comment: (none) -> \"from the phone\""), "\(phoneLine)")
            let objects = try log.jsonLines().map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
            let mine = objects.filter { ["aaaaaaaa", "bbbbbbbb"].contains($0["device"] as? String) }
            #expect(mine.count == 2)
            #expect(mine.allSatisfy { $0["concurrent"] as? Bool == true })
            let lost = mine.map { (($0["fields"] as? [[String: Any]])?.first?["lost"] as? Bool) ?? false }
            #expect(lost == [true, false], "\(mine)")
        }
    }
}

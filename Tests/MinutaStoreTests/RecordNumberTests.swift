import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// Record files show numbers as plain JSON numbers, whatever their Automerge type (unsigned, float,
/// signed), and a save keeps each number's stored type where the written value fits it; a value that
/// does not fit is stored with the type JSON gives it (README, "What the mount shows").
struct RecordNumberTests {
    static let january = Month(year: 2024, month: 1)!
    static let name = "2024-01-03_034234.json"

    /// The record file's text with `members` (`"key": json` pairs) set, replacing what was there.
    func write(_ store: Store, _ members: [(String, String)]) throws -> Store.WriteOutcome {
        let file = try #require(try store.recordFile(named: Self.name, in: Self.january))
        guard case .object(var object) = try JSONParser.parse(file.contents) else { throw FixtureError("not an object") }
        for (key, _) in members { object.removeAll { $0.key == key } }
        var text = String(decoding: JSONWriter.pretty(.object(object)), as: UTF8.self)
        let end = try #require(text.lastIndex(of: "}"))
        text.replaceSubrange(end..., with: members.map { ", \"\($0.0)\": \($0.1)" }.joined() + "}\n")
        return try store.writeRecordFile(Array(text.utf8), named: Self.name, in: Self.january)
    }

    /// The record's file text.
    func fileText(_ store: Store) throws -> String {
        String(decoding: try #require(try store.recordFile(named: Self.name, in: Self.january)).contents, as: UTF8.self)
    }

    /// The value stored under `key` in the record, read from the document file on disk.
    func stored(_ path: String, _ key: String) throws -> ScalarValue? {
        let document = try Document.load(try Fixtures.contents(ofFileAtPath: path + "/records/2024/01.automerge"))
        guard case .object(let record, _)? = document.value(of: .root, key: BadInput.recordID) else { return nil }
        guard case .scalar(let scalar)? = document.value(of: record, key: key) else { return nil }
        return scalar
    }

    @Test("unsigned integers and floats show as plain numbers; a plain number saved over them keeps their type")
    func plainNumbersKeepTheirType() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            // Another device stored an unsigned integer, a float and a signed integer (tagged input still works).
            #expect(try write(store, [("u", #"{"_uint": 7}"#), ("f", #"{"_f64": 2.5}"#), ("i", "3"), ("e", "1e3")]).changed)
            let shown = try fileText(store)
            #expect(shown.contains("\"u\": 7\n") || shown.contains("\"u\": 7,"), "\(shown)")
            #expect(shown.contains("\"f\": 2.5\n") || shown.contains("\"f\": 2.5,"), "\(shown)")
            #expect(shown.contains("\"e\": 1000.0") && !shown.contains("_uint") && !shown.contains("_f64"), "\(shown)")
            #expect(try stored(path, "u") == .uint(7))
            #expect(try stored(path, "f") == .f64(2.5))
            #expect(try stored(path, "e") == .f64(1000))

            // Saving the file as shown changes nothing.
            let before = try Fixtures.contents(ofFileAtPath: path + "/records/2024/01.automerge")
            #expect(try !store.writeRecordFile(Array(shown.utf8), named: Self.name, in: Self.january).changed)
            #expect(try Fixtures.contents(ofFileAtPath: path + "/records/2024/01.automerge") == before)

            // Values that fit keep the stored type.
            #expect(try write(store, [("u", "8"), ("f", "3"), ("i", "4.0")]).changed)
            #expect(try stored(path, "u") == .uint(8))
            #expect(try stored(path, "f") == .f64(3))
            #expect(try stored(path, "i") == .int(4))
            let refit = try fileText(store)
            for (key, text) in [("u", "8"), ("f", "3.0"), ("i", "4")] {
                #expect(refit.contains("\"\(key)\": \(text)\n") || refit.contains("\"\(key)\": \(text),"), "\(key): \(refit)")
            }

            // Values that do not fit take the type JSON gives them.
            #expect(try write(store, [("u", "-1"), ("i", "2.5"), ("f", "18446744073709551615")]).changed)
            #expect(try stored(path, "u") == .int(-1))
            #expect(try stored(path, "i") == .f64(2.5))
            #expect(try stored(path, "f") == .uint(UInt64.max))
            #expect(store.rejectionLog.isEmpty, "\(store.rejectionLog)")
        }
    }

    @Test("numbers inside a stored list keep their types when another element changes")
    func nestedNumbers() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            #expect(try write(store, [("list", #"[{"_uint": 1}, {"_f64": 0.5}, "x"]"#)]).changed)
            let shown = try fileText(store)
            #expect(shown.contains("\"list\": [\n    1,\n    0.5,\n    \"x\"\n  ]"), "\(shown)")
            #expect(try write(store, [("list", #"[1, 0.5, "y"]"#)]).changed)
            let document = try Document.load(try Fixtures.contents(ofFileAtPath: path + "/records/2024/01.automerge"))
            guard case .object(let record, _)? = document.value(of: .root, key: BadInput.recordID),
                  case .object(let list, .list)? = document.value(of: record, key: "list") else {
                Issue.record("no list stored")
                return
            }
            #expect(document.value(of: list, index: 0) == .scalar(.uint(1)))
            #expect(document.value(of: list, index: 1) == .scalar(.f64(0.5)))
            #expect(document.value(of: list, index: 2) == .scalar(.string("y")))
        }
    }

    @Test("a string written over a stored number is still refused, naming what is expected")
    func otherKindsRefused() throws {
        try withTemporaryDirectory { folder in
            let store = try Store(folder: FilePath(try StoreFixture.copyOfAppStore(into: folder)), timeZone: .utc)
            #expect(try write(store, [("u", #"{"_uint": 7}"#)]).changed)
            #expect(throws: StoreError.self) { try write(store, [("u", "\"seven\"")]) }
            #expect(store.rejectionLog.last?.contains("a number like the stored value") == true, "\(store.rejectionLog)")
        }
    }
}

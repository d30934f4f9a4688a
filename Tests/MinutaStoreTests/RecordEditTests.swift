import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// Writing record files: the operations each edit becomes (SPEC section 4).
struct RecordEditTests {
    static let january = Month(year: 2024, month: 1)!
    static let may = Month(year: 2024, month: 5)!
    /// 0BB84374…: string comment, no images.  5C168E2E…: text comment.  A0400CA0… (May): one image, billable.
    static let plainName = "2024-01-03_034234.json"

    func lastChange(_ store: Store, _ month: Month) throws -> [OperationSummary] {
        let document = try #require(try store.document(of: month))
        let last = try #require(document.changes.last)
        return try #require(document.operations(ofChange: last.hash))
    }

    func edited(_ store: Store, _ name: String, in month: Month, _ transform: (String) -> String) throws -> Store.WriteOutcome {
        let file = try #require(try store.recordFile(named: name, in: month))
        let text = transform(String(decoding: file.contents, as: UTF8.self))
        return try store.writeRecordFile(Array(text.utf8), named: name, in: month)
    }

    @Test("changing one field writes one put of that key")
    func oneField() throws {
        try withTemporaryDirectory { folder in
            let store = try Store(folder: FilePath(try StoreFixture.copyOfAppStore(into: folder)), timeZone: .utc)
            let before = try #require(try store.document(of: Self.january)).changeCount
            _ = try edited(store, Self.plainName, in: Self.january) { $0.replacingOccurrences(of: "17:05:39.638Z", with: "18:00:00Z") }
            let document = try #require(try store.document(of: Self.january))
            #expect(document.changeCount == before + 1)
            let operations = try lastChange(store, Self.january)
            #expect(operations == [OperationSummary(action: "set", key: "endTime", isInsert: false, value: .timestamp(1_704_304_800_000))])
            let reloaded = try Document.load(Fixtures.contents(ofFileAtPath: store.folder.string + "/records/2024/01.automerge"))
            #expect(reloaded.heads == document.heads)
        }
    }

    @Test("a word inserted into a text comment is one splice of its characters")
    func textSplice() throws {
        try withTemporaryDirectory { folder in
            let store = try Store(folder: FilePath(try StoreFixture.copyOfAppStore(into: folder)), timeZone: .utc)
            let name = try #require(try store.recordFiles(in: Self.january).first { $0.id == "5C168E2E-6B8F-412B-9329-121D1C34395F" }).name
            _ = try edited(store, name, in: Self.january) { $0.replacingOccurrences(of: "the export", with: "the big export") }
            let operations = try lastChange(store, Self.january)
            #expect(operations.count == 4)
            #expect(operations.allSatisfy { $0.isInsert && $0.action == "set" && $0.key == nil })
            #expect(operations.map(\.value) == ["b", "i", "g", " "].map { ScalarValue.string($0) })
            let file = try #require(try store.recordFile(named: name, in: Self.january))
            #expect(String(decoding: file.contents, as: UTF8.self).contains("\"comment\": \"Refactored the big export pipeline; next: tests for edge cases\""))
        }
    }

    @Test("an image added to the list is one insert")
    func imageInsert() throws {
        try withTemporaryDirectory { folder in
            let store = try Store(folder: FilePath(try StoreFixture.copyOfAppStore(into: folder)), timeZone: .utc)
            _ = try edited(store, "2024-05-15_065335.json", in: Self.may) {
                $0.replacingOccurrences(of: "_0.jpg\"", with: "_0.jpg\",\n    \"A0400CA0-E4B2-4E0E-B1DC-02BC9EAA0586_1.png\"")
            }
            let operations = try lastChange(store, Self.may)
            #expect(operations == [OperationSummary(action: "set", key: nil, isInsert: true, value: .string("A0400CA0-E4B2-4E0E-B1DC-02BC9EAA0586_1.png"))])
            let file = try #require(try store.recordFile(named: "2024-05-15_065335.json", in: Self.may))
            #expect(String(decoding: file.contents, as: UTF8.self).contains("\"billable\": true"))
        }
    }

    @Test("writing identical content changes nothing and rewrites no file")
    func identicalContent() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let documentPath = path + "/records/2024/01.automerge"
            let before = try StoreFixture.modificationDate(documentPath)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let outcome = try edited(store, Self.plainName, in: Self.january) { $0 }
            // Reformatted but equal JSON is identical content too.
            let compact = try edited(store, Self.plainName, in: Self.january) { $0.replacingOccurrences(of: "\n  ", with: " ") }
            #expect(!outcome.changed && !compact.changed)
            #expect(try StoreFixture.modificationDate(documentPath) == before)
        }
    }

    @Test("a record written without id is created with a new upper-case UUID")
    func newRecord() throws {
        try withTemporaryDirectory { folder in
            let store = try Store(folder: FilePath(try StoreFixture.copyOfAppStore(into: folder)), timeZone: .utc)
            let json = #"{"startTime": "2024-01-20T10:00:00+01:00", "endTime": 1705745700000, "comment": "new", "images": []}"#
            let outcome = try store.writeRecordFile(Array(json.utf8), named: "anything.json", in: Self.january)
            #expect(outcome.fileName == "2024-01-20_090000.json")
            #expect(UUIDTextTests.isUpperCaseVersion4(outcome.id), "\(outcome.id)")
            let file = try #require(try store.recordFile(named: "2024-01-20_090000.json", in: Self.january))
            #expect(String(decoding: file.contents, as: UTF8.self).contains(#""endTime": "2024-01-20T10:15:00Z""#))
        }
    }

    @Test("a startTime in another month moves the record and its images there")
    func moveToAnotherMonth() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let outcome = try edited(store, "2024-05-15_065335.json", in: Self.may) {
                $0.replacingOccurrences(of: "2024-05-15T06:53:35.681Z", with: "2024-06-02T08:00:00Z")
                  .replacingOccurrences(of: "2024-05-15T07:30:32.206Z", with: "2024-06-02T09:00:00Z")
            }
            let june = try #require(Month(year: 2024, month: 6))
            #expect(outcome.month == june && outcome.fileName == "2024-06-02_080000.json")
            #expect(try store.recordFiles(in: Self.may).allSatisfy { $0.id != "A0400CA0-E4B2-4E0E-B1DC-02BC9EAA0586" })
            let moved = String(decoding: try #require(try store.recordFile(named: "2024-06-02_080000.json", in: june)).contents, as: UTF8.self)
            #expect(moved.contains("\"billable\": true") && moved.contains("Спринт ретро"))
            #expect(FileManager.default.fileExists(atPath: path + "/records/2024/06/A0400CA0-E4B2-4E0E-B1DC-02BC9EAA0586_0.jpg"))
            #expect(!FileManager.default.fileExists(atPath: path + "/records/2024/05/A0400CA0-E4B2-4E0E-B1DC-02BC9EAA0586_0.jpg"))
            // The old name still resolves for a moment, so an editor can re-read it.
            #expect(try store.recordFile(named: "2024-05-15_065335.json", in: Self.may)?.id == "A0400CA0-E4B2-4E0E-B1DC-02BC9EAA0586")
            // Both documents on disk agree.
            let mayOnDisk = try Document.load(Fixtures.contents(ofFileAtPath: path + "/records/2024/05.automerge"))
            #expect(mayOnDisk.value(of: .root, key: "A0400CA0-E4B2-4E0E-B1DC-02BC9EAA0586") == nil)
        }
    }

    @Test("deleting a record removes it and its image files")
    func deleteRecord() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            try store.deleteRecordFile(named: "2024-05-15_065335.json", in: Self.may)
            #expect(try store.recordFile(named: "2024-05-15_065335.json", in: Self.may) == nil)
            #expect(!FileManager.default.fileExists(atPath: path + "/records/2024/05/A0400CA0-E4B2-4E0E-B1DC-02BC9EAA0586_0.jpg"))
        }
    }

    @Test("bad input is refused with a reason and changes nothing", arguments: [
        ("broken JSON", #"{"id": "0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81", "startTime": }"#, "line 1, column 61: expected a value"),
        ("truncated", #"{"id": "0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81""#, "unexpected end of file"),
        ("not an object", "[1, 2]", "expected a JSON object"),
        ("wrong type", #"{"startTime": "2024-01-03T03:42:34.915Z", "comment": 5}"#, "\"comment\": expected a string"),
        ("date", #"{"startTime": "yesterday"}"#, "\"startTime\": expected an ISO 8601 date"),
        ("date out of range", #"{"startTime": "10000-01-01T00:00:00Z"}"#, "\"startTime\""),
        ("end before start", #"{"startTime": "2024-01-03T03:42:34.915Z", "endTime": "2024-01-02T00:00:00Z"}"#, "\"endTime\" is before \"startTime\""),
        ("id of another record", #"{"id": "5C168E2E-6B8F-412B-9329-121D1C34395F", "startTime": "2024-01-03T03:42:34.915Z"}"#, "belongs to another record"),
        ("image with slash", #"{"startTime": "2024-01-03T03:42:34.915Z", "images": ["../../etc/passwd"]}"#, "not a plain file name"),
        ("image dot dot", #"{"startTime": "2024-01-03T03:42:34.915Z", "images": [".."]}"#, "not a plain file name"),
        ("missing startTime", #"{"endTime": "2024-01-03T17:05:39.638Z"}"#, "\"startTime\" is required"),
        ("duplicate key", #"{"startTime": "2024-01-03T03:42:34.915Z", "startTime": "2024-01-03T03:42:34.915Z"}"#, "duplicate key"),
        ("tagId not a UUID", #"{"startTime": "2024-01-03T03:42:34.915Z", "tagId": "work"}"#, "\"tagId\": expected a UUID"),
        ("NUL in a string", "{\"startTime\": \"2024-01-03T03:42:34.915Z\", \"comment\": \"a\u{0}b\"}", "control character"),
    ])
    func badInput(label: String, json: String, reason: String) throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let documentPath = path + "/records/2024/01.automerge"
            let bytesBefore = try Fixtures.contents(ofFileAtPath: documentPath)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let shownBefore = try #require(try store.recordFile(named: Self.plainName, in: Self.january))
            var thrown: StoreError?
            do { _ = try store.writeRecordFile(Array(json.utf8), named: Self.plainName, in: Self.january) } catch let error as StoreError { thrown = error }
            let error = try #require(thrown, "\(label) was accepted")
            #expect(error.description.contains(reason), "\(label): \(error)")
            #expect(error.description.hasPrefix("records/2024/01/\(Self.plainName): "))
            #expect(try Fixtures.contents(ofFileAtPath: documentPath) == bytesBefore)
            #expect(try store.recordFile(named: Self.plainName, in: Self.january) == shownBefore)
            #expect(store.rejectionLog.last == error.description)
        }
    }

    @Test("invalid UTF-8 is refused with its line and column")
    func invalidUTF8() throws {
        try withTemporaryDirectory { folder in
            let store = try Store(folder: FilePath(try StoreFixture.copyOfAppStore(into: folder)), timeZone: .utc)
            let bytes = Array("{\n  \"comment\": \"".utf8) + [0xC3, 0x28] + Array("\"\n}".utf8)
            #expect(throws: StoreError.self) { try store.writeRecordFile(bytes, named: Self.plainName, in: Self.january) }
            #expect(store.rejectionLog.last?.contains("line 2, column 15: the file is not valid UTF-8") == true)
        }
    }

    @Test("tags.json edits: a renamed tag is one put, a removed tag is deleted, a new one created")
    func tagEdits() throws {
        try withTemporaryDirectory { folder in
            let store = try Store(folder: FilePath(try StoreFixture.copyOfAppStore(into: folder)), timeZone: .utc)
            var text = String(decoding: try store.tagsFile(), as: UTF8.self)
            text = text.replacingOccurrences(of: "\"Yoga\"", with: "\"Stretching\"")
            #expect(try store.writeTagsFile(Array(text.utf8)))
            let document = try store.tagsDocument()
            let lastHash = try #require(document.changes.last).hash
            let operations = try #require(document.operations(ofChange: lastHash))
            #expect(operations == [OperationSummary(action: "set", key: "name", isInsert: false, value: .string("Stretching"))])
            let json = ##"{"tags": [{"name": "Solo", "color": "#123456"}]}"##
            #expect(try store.writeTagsFile(Array(json.utf8)))
            let shown = String(decoding: try store.tagsFile(), as: UTF8.self)
            #expect(shown.contains("\"Solo\"") && !shown.contains("Stretching"))
        }
    }

    @Test("a start outside the years 1-9999 in the store's time zone is refused, though within them in UTC",
          arguments: [("Pacific/Kiritimati", "9999-12-31T23:30:00Z"), ("America/Los_Angeles", "0001-01-01T00:00:00Z")])
    func startOutsideStoreYears(zone: String, start: String) throws {
        try withTemporaryDirectory { folder in
            let timeZone = try #require(StoreTimeZone(identifier: zone))
            let store = try Store(folder: FilePath(try StoreFixture.copyOfAppStore(into: folder)), timeZone: timeZone)
            let before = try store.recordFiles(in: Self.january).map(\.contents)
            let file = try #require(try store.recordFiles(in: Self.january).first { $0.id == BadInput.recordID })
            let object = try #require(try JSONSerialization.jsonObject(with: Data(file.contents)) as? [String: Any])
            var moved = object
            moved["startTime"] = start
            moved["endTime"] = nil
            let bytes = Array(try JSONSerialization.data(withJSONObject: moved))
            #expect(throws: StoreError.self) { try store.writeRecordFile(bytes, named: file.name, in: Self.january) }
            #expect(store.rejectionLog.last?.contains("in the store's time zone (\(zone)) it falls outside the years 1 to 9999") == true,
                    "\(store.rejectionLog)")
            #expect(try store.recordFiles(in: Self.january).map(\.contents) == before)
            let fresh = Array(#"{"startTime": "\#(start)"}"#.utf8)
            #expect(throws: StoreError.self) { try store.writeRecordFile(fresh, named: "new.json", in: Self.january) }
        }
    }

    @Test("tags.json: a new tag without a name, or a tag's colour or isArchived taken away, is refused and changes nothing")
    func tagFieldsRequired() throws {
        try withTemporaryDirectory { folder in
            let store = try Store(folder: FilePath(try StoreFixture.copyOfAppStore(into: folder)), timeZone: .utc)
            let before = try store.tagsFile()
            /// `tags.json` as shown, with `change` applied to its list of tags.
            func written(_ change: (inout [[String: Any]]) -> Void) throws -> [UInt8] {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(before)) as? [String: Any])
                var tags = try #require(object["tags"] as? [[String: Any]])
                change(&tags)
                return Array(try JSONSerialization.data(withJSONObject: ["tags": tags]))
            }
            let refused: [([UInt8], String)] = [
                (try written { $0.append(["color": "#000000"]) }, "name"),
                (try written { $0[0]["color"] = nil }, "color"),
                (try written { $0[0]["color"] = NSNull() }, "color"),
                (try written { $0[0]["isArchived"] = nil }, "isArchived"),
            ]
            for (bytes, field) in refused {
                #expect(throws: StoreError.self) { try store.writeTagsFile(bytes) }
                #expect(store.rejectionLog.last?.contains("\"\(field)\" is required") == true, "\(store.rejectionLog)")
                #expect(try store.tagsFile() == before)
            }
        }
    }
}

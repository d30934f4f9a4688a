import FileTreeInterface
import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// `.minutafs/history/` in the store's tree (SPEC section 8): effective times, folder names, snapshots
/// rendered as the live view rendered them, restore by writing a snapshot's file back, read-only.
struct HistoryTests {
    static let march = Month(year: 2024, month: 3)!
    /// A March record with an image, and one without.
    static let withImage = "478594E3-17C2-407E-8493-B78CB2137020"
    static let withoutImage = "0144B87B-34CC-4DD9-AF76-D07C366E1C12"

    func text(_ tree: StoreView, _ path: String) throws -> String {
        String(decoding: try tree.contents(ofPath: path), as: UTF8.self)
    }

    @Test("a change's effective time is its own or its dependencies' latest; seconds and milliseconds are told apart")
    func effectiveTimes() throws {
        var document = Document()
        try document.put(.string("a"), forKey: "a")
        _ = document.commit(time: 1_700_000_000)  // seconds
        try document.put(.string("b"), forKey: "b")
        _ = document.commit(time: 0)  // the app's implicit commit
        try document.put(.string("c"), forKey: "c")
        _ = document.commit(time: 1_700_000_100_000)  // milliseconds
        try document.put(.string("d"), forKey: "d")
        _ = document.commit(time: 1_600_000_000)  // a clock behind its dependency
        let times = EffectiveTimes(of: document)
        #expect(times.milliseconds == [1_700_000_000_000, 1_700_000_000_000, 1_700_000_100_000, 1_700_000_100_000])
        // The same from the saved file's change metadata alone (what `ls .minutafs/history` reads).
        let timeline = try #require(try Document.changeTimeline(ofFile: document.save()))
        #expect(EffectiveTimes.milliseconds(of: timeline).sorted() == times.milliseconds.sorted())
        #expect(times.changes(atOrBefore: 1_700_000_099_999).count == 2)
        #expect(try document.state(including: times.changes(atOrBefore: 1_700_000_099_999)).typedJSON() == #"{"a":"a","b":"b"}"#)
    }

    @Test("folder names: a day ends at its last millisecond in the store's zone; instants in the zone, in UTC or with an offset")
    func folderNames() throws {
        let berlin = try #require(StoreTimeZone(identifier: "Europe/Berlin"))
        func utc(_ text: String) throws -> Int64 { try #require(ISO8601.milliseconds(from: text)) }
        #expect(HistoryInstant.milliseconds(ofName: "2024-03-12", timeZone: berlin) == (try utc("2024-03-12T22:59:59.999Z")))
        #expect(HistoryInstant.milliseconds(ofName: "2024-07-12", timeZone: berlin) == (try utc("2024-07-12T21:59:59.999Z")))
        #expect(HistoryInstant.milliseconds(ofName: "2024-03-12T09:30", timeZone: berlin) == (try utc("2024-03-12T08:30:00Z")))
        #expect(HistoryInstant.milliseconds(ofName: "2024-03-12T09:30:15", timeZone: berlin) == (try utc("2024-03-12T08:30:15Z")))
        #expect(HistoryInstant.milliseconds(ofName: "2024-03-12T09:30Z", timeZone: berlin) == (try utc("2024-03-12T09:30:00Z")))
        #expect(HistoryInstant.milliseconds(ofName: "2024-03-12T09:30+02:00", timeZone: berlin) == (try utc("2024-03-12T07:30:00Z")))
        for bad in ["", "today", "2024-13-01", "2024-03-12X09:30", "2024-03-32", "2024-03-12T25:00"] {
            #expect(HistoryInstant.milliseconds(ofName: bad, timeZone: berlin) == nil, "\(bad)")
        }
        #expect(HistoryInstant.dayName(ofMilliseconds: try utc("2024-03-12T23:30:00Z"), timeZone: berlin) == "2024-03-13")
    }

    @Test("a local time that happens twice opens its later occurrence, and a skipped one is read with the offset before the change, in every zone",
          arguments: [
            // zone, the repeated local time, its later occurrence, a skipped local time, what it is read as
            ("Europe/Berlin", "2024-10-27T02:30", "2024-10-27T01:30:00Z", "2024-03-31T02:30", "2024-03-31T01:30:00Z"),
            ("America/New_York", "2024-11-03T01:30", "2024-11-03T06:30:00Z", "2024-03-10T02:30", "2024-03-10T07:30:00Z"),
            ("Australia/Sydney", "2024-04-07T02:30", "2024-04-06T16:30:00Z", "2024-10-06T02:30", "2024-10-05T16:30:00Z"),
            ("Australia/Lord_Howe", "2024-04-07T01:45", "2024-04-06T15:15:00Z", "2024-10-06T02:15", "2024-10-05T15:45:00Z"),
          ] as [(String, String, String, String, String)])
    func ambiguousLocalTimes(zone: String, repeated: String, later: String, skipped: String, readAs: String) throws {
        let timeZone = try #require(StoreTimeZone(identifier: zone))
        #expect(HistoryInstant.milliseconds(ofName: repeated, timeZone: timeZone) == ISO8601.milliseconds(from: later), "\(zone) \(repeated)")
        #expect(HistoryInstant.milliseconds(ofName: skipped, timeZone: timeZone) == ISO8601.milliseconds(from: readAs), "\(zone) \(skipped)")
    }

    @Test("history is not listed in .minutafs but opens by name, one folder per day with changes")
    func hiddenAndListed() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let tree = StoreView(store: try Store(folder: FilePath(path), timeZone: .utc))
            #expect(try !tree.entries(inDirectory: "/.minutafs").contains { $0.name == "history" })
            #expect(try tree.attributes(ofPath: "/.minutafs/history").isDirectory)
            let days = try tree.entries(inDirectory: "/.minutafs/history").map(\.name)
            #expect(days == days.sorted())
            // Independently: the days of every change's own time (the sample's changes all carry app
            // times in milliseconds, each no earlier than its dependencies').
            var expected = Set<String>()
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd"
            formatter.timeZone = TimeZone(identifier: "UTC")
            var files = ["tags.automerge"]
            for month in 1...12 { files.append(String(format: "records/2024/%02d.automerge", month)) }
            for file in files {
                let document = try Document.load(Fixtures.contents(ofFileAtPath: path + "/" + file))
                for change in document.changes where change.time > 0 {
                    expected.insert(formatter.string(from: Date(timeIntervalSince1970: Double(change.time) / 1000)))
                }
            }
            #expect(Set(days) == expected)
            #expect(days.count == expected.count)
        }
    }

    @Test("a snapshot shows the records as they were; writing its files back restores an edited and a deleted record")
    func restoreByCopy() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let store = try Store(folder: FilePath(path), timeZone: .utc)
            let tree = StoreView(store: store)
            let files = try store.recordFiles(in: Self.march)
            let edited = try #require(files.first { $0.id == Self.withImage })
            let deleted = try #require(files.first { $0.id == Self.withoutImage })
            let live = "/records/2024/03/"
            let snapshot = "/.minutafs/history/2025-01-01/records/2024/03/"
            let before = try tree.entries(inDirectory: live).map(\.name).sorted()
            #expect(try tree.entries(inDirectory: snapshot).map(\.name).sorted() == before)
            #expect(try tree.contents(ofPath: snapshot + edited.name) == edited.contents)
            let tagsBefore = try tree.contents(ofPath: "/tags.json")
            #expect(try tree.contents(ofPath: "/.minutafs/history/2025-01-01/tags.json") == tagsBefore)
            let image = Self.withImage + "_0.jpg"
            #expect(try tree.contents(ofPath: snapshot + image) == Fixtures.contents(ofFileAtPath: path + "/records/2024/03/" + image))

            // Before the month's first change there was no March document.
            let missing = #expect(throws: TreeError.self) { try tree.entries(inDirectory: "/.minutafs/history/2024-02-01/records/2024/03") }
            #expect(missing?.code == .noSuchFileOrDirectory)
            #expect(try !tree.entries(inDirectory: "/.minutafs/history/2024-02-01/records/2024").contains { $0.name == "03" })

            // Edit one, delete the other (changes made now, long after 2025-01-01).
            let newText = try text(tree, live + edited.name).replacingOccurrences(of: "\"images\"", with: "\"comment\": \"changed\",\n  \"images\"")
            try tree.write(Array(newText.utf8), toPath: live + edited.name)
            try tree.removeFile(atPath: live + deleted.name)
            #expect(try text(tree, live + edited.name).contains("changed"))
            #expect(try !tree.entries(inDirectory: live).contains { $0.name == deleted.name })
            // Past snapshots are unchanged (also rendered afresh, not from the cache); one after the edits shows them.
            #expect(try tree.contents(ofPath: snapshot + edited.name) == edited.contents)
            #expect(try tree.contents(ofPath: snapshot + deleted.name) == deleted.contents)
            let fresh = StoreView(store: store)
            #expect(try fresh.contents(ofPath: snapshot + edited.name) == edited.contents)
            #expect(try fresh.contents(ofPath: snapshot + deleted.name) == deleted.contents)
            let later = "/.minutafs/history/2100-01-01T00:00Z/records/2024/03/"
            #expect(try text(tree, later + edited.name).contains("changed"))
            #expect(try !tree.entries(inDirectory: later).contains { $0.name == deleted.name })

            // Restore both by writing the snapshot's files into the live folder.
            try tree.write(try tree.contents(ofPath: snapshot + edited.name), toPath: live + edited.name)
            try tree.write(try tree.contents(ofPath: snapshot + deleted.name), toPath: live + deleted.name)
            #expect(try tree.contents(ofPath: live + edited.name) == edited.contents)
            #expect(try tree.contents(ofPath: live + deleted.name) == deleted.contents)
            #expect(try tree.entries(inDirectory: live).map(\.name).sorted() == before)

            // A second store over the backing folder sees the same.
            let again = try Store(folder: FilePath(path), timeZone: .utc)
            #expect(try again.recordFiles(in: Self.march).map(\.contents) == files.map(\.contents))
        }
    }

    @Test("every write, create, rename or delete under history fails with EROFS")
    func readOnly() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let tree = StoreView(store: try Store(folder: FilePath(path), timeZone: .utc))
            let snapshot = "/.minutafs/history/2025-01-01"
            let file = snapshot + "/records/2024/03/" + (try tree.entries(inDirectory: snapshot + "/records/2024/03").first { $0.name.hasSuffix(".json") }?.name ?? "")
            func isReadOnly(_ body: () throws(TreeError) -> Void) -> Bool {
                do { try body() } catch { return error.code == .readOnlyFileSystem }
                return false
            }
            #expect(isReadOnly { () throws(TreeError) in try tree.write([], toPath: file) })
            #expect(isReadOnly { () throws(TreeError) in try tree.write([], toPath: snapshot + "/tags.json") })
            #expect(isReadOnly { () throws(TreeError) in try tree.removeFile(atPath: file) })
            #expect(isReadOnly { () throws(TreeError) in try tree.renameFile(from: file, to: file + ".x") })
            #expect(isReadOnly { () throws(TreeError) in try tree.makeDirectory(atPath: snapshot + "/new") })
            #expect(isReadOnly { () throws(TreeError) in try tree.removeDirectory(atPath: snapshot + "/records/2024/03") })
            #expect(try !tree.attributes(ofPath: file).isWritable)
            #expect(try !tree.attributes(ofPath: snapshot).isWritable)
            #expect(try !tree.attributes(ofPath: "/.minutafs/history").isWritable)
            #expect(try text(tree, "/.minutafs/status").contains("history: .minutafs/history"))
        }
    }

    @Test("writing a snapshot's tags.json back brings back a deleted tag with its id and undoes a rename")
    func restoreTags() throws {
        try withTemporaryDirectory { folder in
            let path = try StoreFixture.copyOfAppStore(into: folder)
            let tree = StoreView(store: try Store(folder: FilePath(path), timeZone: .utc))
            let original = try tree.contents(ofPath: "/tags.json")
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(original)) as? [String: [[String: Any]]])
            var tags = try #require(parsed["tags"])
            #expect(tags.count >= 2)
            let removed = try #require(tags.removeFirst()["id"] as? String)
            tags[0]["name"] = "Renamed"
            try tree.write(Array(try JSONSerialization.data(withJSONObject: ["tags": tags])), toPath: "/tags.json")
            #expect(try !text(tree, "/tags.json").contains(removed))
            let snapshot = try tree.contents(ofPath: "/.minutafs/history/2025-01-01/tags.json")
            #expect(snapshot == original)
            try tree.write(snapshot, toPath: "/tags.json")
            #expect(try tree.contents(ofPath: "/tags.json") == original)
            #expect(try StoreView(store: try Store(folder: FilePath(path), timeZone: .utc)).contents(ofPath: "/tags.json") == original)
        }
    }
}

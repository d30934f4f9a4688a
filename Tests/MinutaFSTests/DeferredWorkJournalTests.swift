import Foundation
@testable import MinutaFS
import Testing
import TestSupport

/// The journal of deferred work on its own: what one opening records, the next opening finds, in order;
/// what is forgotten is gone; nothing half-written or damaged is taken for an entry.
struct DeferredWorkJournalTests {
    static func entryFiles(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".entry") }.sorted()
    }

    @Test("entries recorded by one opening are found by the next, oldest first, with their bytes")
    func recordedEntriesAreRecovered() throws {
        try withTemporaryDirectory { folder in
            let journalFolder = folder + "/journal"
            let first = try DeferredWorkJournal(folder: journalFolder)
            #expect(first.recovered.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: journalFolder), "an empty journal makes no folder")
            let photo = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try first.record(JournalEntry(path: "/records/2024/01/holiday.jpg", work: .write(contents: photo)))
            try first.record(JournalEntry(path: "/records/2024/01/2024-01-03_034234.json", work: .removal))
            try first.record(JournalEntry(path: "/records/2024/01/notes.txt", work: .write(contents: Array("one\n".utf8))))
            // A newer version of the same file replaces the older one.
            try first.record(JournalEntry(path: "/records/2024/01/notes.txt", work: .write(contents: Array("two\n".utf8))))
            #expect(try Self.entryFiles(journalFolder).count == 3)

            let second = try DeferredWorkJournal(folder: journalFolder)
            #expect(second.recovered == [
                JournalEntry(path: "/records/2024/01/holiday.jpg", work: .write(contents: photo)),
                JournalEntry(path: "/records/2024/01/2024-01-03_034234.json", work: .removal),
                JournalEntry(path: "/records/2024/01/notes.txt", work: .write(contents: Array("two\n".utf8))),
            ])
            #expect(second.waiting.count == 3)
            second.forget(path: "/records/2024/01/holiday.jpg", isRemoval: false)
            second.forget(path: "/records/2024/01/2024-01-03_034234.json", isRemoval: false)  // not a write: kept
            #expect(try DeferredWorkJournal(folder: journalFolder).recovered.map(\.path)
                == ["/records/2024/01/2024-01-03_034234.json", "/records/2024/01/notes.txt"])
            let attributes = try FileManager.default.attributesOfItem(atPath: journalFolder)
            #expect((attributes[.posixPermissions] as? Int) == 0o700, "the journal holds a user's files: only they may read it")
        }
    }

    @Test("an entry whose condition no longer holds is neither written nor forgotten")
    func conditionsDecide() throws {
        try withTemporaryDirectory { folder in
            let journal = try DeferredWorkJournal(folder: folder + "/journal")
            try journal.record(JournalEntry(path: "/a.txt", work: .write(contents: [1])), when: { false })
            #expect(!journal.holds(path: "/a.txt", isRemoval: false))
            try journal.record(JournalEntry(path: "/a.txt", work: .write(contents: [1])))
            journal.forget(path: "/a.txt", isRemoval: false, when: { false })
            #expect(journal.holds(path: "/a.txt", isRemoval: false))
            #expect(try DeferredWorkJournal(folder: folder + "/journal").recovered.count == 1)
        }
    }

    @Test("a half-written entry (a kill mid-write) is dropped; a damaged one is reported and left as it is")
    func halfWrittenAndDamagedEntries() throws {
        try withTemporaryDirectory { folder in
            let journalFolder = folder + "/journal"
            let journal = try DeferredWorkJournal(folder: journalFolder)
            try journal.record(JournalEntry(path: "/records/2024/01/notes.txt", work: .write(contents: Array("kept\n".utf8))))
            let whole = JournalEntry(path: "/records/2024/01/cut.txt", work: .write(contents: Array(repeating: 7, count: 100))).encoded()
            #expect(FileManager.default.createFile(atPath: journalFolder + "/00000000000000aa.tmp", contents: Data(whole.prefix(40))))
            var flipped = whole
            flipped[30] ^= 0xFF
            #expect(FileManager.default.createFile(atPath: journalFolder + "/00000000000000ab.entry", contents: Data(flipped)))
            #expect(FileManager.default.createFile(atPath: journalFolder + "/00000000000000ac.entry", contents: Data(whole.prefix(whole.count - 9))))

            let reopened = try DeferredWorkJournal(folder: journalFolder)
            #expect(reopened.recovered == [JournalEntry(path: "/records/2024/01/notes.txt", work: .write(contents: Array("kept\n".utf8)))])
            #expect(reopened.damaged.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["00000000000000ab.entry", "00000000000000ac.entry"])
            #expect(!FileManager.default.fileExists(atPath: journalFolder + "/00000000000000aa.tmp"))
            #expect(FileManager.default.fileExists(atPath: journalFolder + "/00000000000000ab.entry"), "damaged entries are never deleted")
            // New entries are numbered after every file there, so none is overwritten.
            try reopened.record(JournalEntry(path: "/x.txt", work: .removal))
            #expect(try Self.entryFiles(journalFolder).last == "00000000000000ad.entry")
            let inspected = try DeferredWorkJournal.inspect(folder: journalFolder)
            #expect(inspected.entries.map(\.path) == ["/records/2024/01/notes.txt", "/x.txt"])
            #expect(inspected.damaged.count == 2)
        }
    }

    @Test("every entry decodes to itself; cut at any length, it is refused")
    func entryRoundTrip() throws {
        let entries = [
            JournalEntry(path: "/records/2024/01/" + String(repeating: "x", count: 255), work: .write(contents: [])),
            JournalEntry(path: "/tags.json.new", work: .write(contents: Array("{\"tags\": []}\n".utf8))),
            JournalEntry(path: "/records/2024/01/a\nb.json", work: .removal),
        ]
        for entry in entries {
            let bytes = entry.encoded()
            #expect(try JournalEntry(decoding: bytes) == entry)
            for length in 0..<bytes.count {
                #expect(throws: JournalEntryDamage.self) { try JournalEntry(decoding: Array(bytes.prefix(length))) }
            }
        }
    }

    @Test("a folder that cannot be listed is an error that says which")
    func unusableFolder() throws {
        try withTemporaryDirectory { folder in
            #expect(FileManager.default.createFile(atPath: folder + "/file", contents: Data()))
            #expect(throws: JournalError.self) { try DeferredWorkJournal(folder: folder + "/file") }
            #expect(throws: JournalError.self) { try DeferredWorkJournal(folder: folder + "/file/journal") }
        }
    }
}

import AutomergeKit
import Foundation
@testable import MinutaStore
import Testing
import TestSupport

/// `DocumentFiles` alone, over a folder of its own: it reads what is at a document's path, writes a
/// document without ever replacing a version it has not merged, and never writes over, renames or
/// deletes a file that does not load (SPEC 5a).
struct DocumentFilesTests {
    static let january = "records/2024/01.automerge"
    /// 2024-01-01T00:00:00Z: the time of changes and the date in conflict copies' names.
    static let clock = 1_704_067_200
    static let copyName = "records/2024/01 (minutafs conflicted copy 2024-01-01).automerge"

    struct Setup {
        let path: String
        let events: StoreEvents
        let unreadable: UnreadableFiles
        let files: DocumentFiles

        init(in folder: String) throws {
            path = folder + "/store"
            try FileManager.default.createDirectory(atPath: path + "/records/2024", withIntermediateDirectories: true)
            events = StoreEvents(log: { _ in })
            unreadable = UnreadableFiles()
            files = DocumentFiles(folder: BackingFolder(path: path, events: events), actor: ActorID.random(), unreadable: unreadable,
                                  events: events, clock: { DocumentFilesTests.clock })
        }

        func write(_ bytes: [UInt8], to relative: String) throws {
            // As a sync tool delivers: a temporary file renamed into place.
            let temporary = path + "/records/.delivery.tmp"
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            try FileManager.default.moveItem(atPath: temporary, toPath: path + "/" + relative)
        }

        func replace(_ bytes: [UInt8], at relative: String) throws {
            let temporary = path + "/records/.delivery.tmp"
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path + "/" + relative) == 0 else { throw FixtureError("rename failed") }
        }

        func bytes(_ relative: String) throws -> [UInt8] { try Fixtures.contents(ofFileAtPath: path + "/" + relative) }

        /// The record ids in the document file at `relative`.
        func records(_ relative: String) throws -> Set<String> { Set(try Document.load(bytes(relative)).keys(of: .root)) }
    }

    /// A record `id` added to `document` (uncommitted).
    static func add(_ id: String, to document: inout Document, comment: String = "") throws {
        let record = try document.putObject(.map, forKey: id)
        try document.put(.timestamp(1_704_099_600_000), forKey: "startTime", in: record)
        try document.put(.string(comment), forKey: "comment", in: record)
    }

    static func record(_ number: Int) -> String { "0A000000-0000-4000-8000-\(String(format: "%012d", number))" }

    /// A new document with record 1, not yet saved anywhere.
    static func newDocument() throws -> LoadedDocument {
        var document = Document()
        try add(record(1), to: &document)
        return LoadedDocument(document: document, identity: nil, view: nil, savedChangeCount: 0)
    }

    // MARK: Reading

    @Test("what is at a document's path: nothing, an empty file, garbage, a link, a folder, or a document")
    func readingWhatIsThere() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            guard case .absent = setup.files.readDocumentFile(Self.january) else { Issue.record("no file is not absent"); return }
            let cases: [(String, () throws -> Void, (UnreadableReason) -> Bool)] = [
                ("empty", { try setup.write([], to: Self.january) }, { $0 == .empty }),
                ("garbage", { try setup.replace(Array("not a document".utf8), at: Self.january) }, { if case .format = $0 { true } else { false } }),
                ("link", {
                    try FileManager.default.removeItem(atPath: setup.path + "/" + Self.january)
                    try FileManager.default.createSymbolicLink(atPath: setup.path + "/" + Self.january, withDestinationPath: "/etc/hostname")
                }, { $0 == .symbolicLink }),
                ("folder", {
                    try FileManager.default.removeItem(atPath: setup.path + "/" + Self.january)
                    try FileManager.default.createDirectory(atPath: setup.path + "/" + Self.january, withIntermediateDirectories: false)
                }, { $0 == .notARegularFile }),
            ]
            for (name, make, expected) in cases {
                try make()
                guard case .unreadable(let reason, let identity) = setup.files.readDocumentFile(Self.january) else {
                    Issue.record("\(name) was not unreadable"); continue
                }
                #expect(expected(reason), "\(name): \(reason)")
                #expect(identity != nil, "\(name): no identity")
            }
            try FileManager.default.removeItem(atPath: setup.path + "/" + Self.january)
            var document = try Self.newDocument().document
            let bytes = try document.save()
            try setup.write(bytes, to: Self.january)
            guard case .loaded(let loaded, let identity, let read) = setup.files.readDocumentFile(Self.january) else {
                Issue.record("a document did not load"); return
            }
            #expect(read == bytes)
            #expect(identity == BackingFiles.status(setup.path + "/" + Self.january)?.identity)
            #expect(loaded.keys(of: .root) == [Self.record(1)])
        }
    }

    // MARK: Saving

    @Test("a new document is written and counted once; saving it unchanged writes nothing")
    func saveNewDocument() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            var loaded = try Self.newDocument()
            #expect(try setup.files.save(&loaded, to: Self.january))
            #expect(try setup.records(Self.january) == [Self.record(1)])
            #expect(loaded.identity == BackingFiles.status(setup.path + "/" + Self.january)?.identity)
            #expect(loaded.savedChangeCount == loaded.document.changeCount)
            #expect(loaded.savedBytes == (try setup.bytes(Self.january)))
            #expect(setup.events.snapshot.savedDocumentCount == 1)
            #expect(try !setup.files.save(&loaded, to: Self.january))
            #expect(setup.events.snapshot.savedDocumentCount == 1)
            // No temporary file is left beside it.
            #expect(try FileManager.default.contentsOfDirectory(atPath: setup.path + "/records/2024") == ["01.automerge"])
        }
    }

    @Test("a later save appends the new change to the bytes written before")
    func saveAppends() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            var loaded = try Self.newDocument()
            try setup.files.save(&loaded, to: Self.january)
            let first = try setup.bytes(Self.january)
            try Self.add(Self.record(2), to: &loaded.document)
            #expect(try setup.files.save(&loaded, to: Self.january))
            let second = try setup.bytes(Self.january)
            #expect(second.count > first.count && Array(second.prefix(first.count)) == first)
            #expect(loaded.appendedBytes == second.count - first.count)
            #expect(try setup.records(Self.january) == [Self.record(1), Self.record(2)])
        }
    }

    @Test("a version another device put there is merged before the save, never replaced")
    func anotherVersionIsMerged() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            var loaded = try Self.newDocument()
            try setup.files.save(&loaded, to: Self.january)
            var phone = try Document.load(setup.bytes(Self.january)).fork()
            try Self.add(Self.record(2), to: &phone)
            try setup.replace(phone.save(), at: Self.january)
            try Self.add(Self.record(3), to: &loaded.document)
            #expect(try setup.files.save(&loaded, to: Self.january))
            #expect(try setup.records(Self.january) == [Self.record(1), Self.record(2), Self.record(3)])
            #expect(Set(loaded.document.keys(of: .root)) == [Self.record(1), Self.record(2), Self.record(3)])
        }
    }

    @Test("a file that does not load is left as it is, what the store holds goes to one conflict copy, and a readable version is merged again")
    func unreadableFileIsNeverWrittenOver() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            var loaded = try Self.newDocument()
            try setup.files.save(&loaded, to: Self.january)
            let good = try setup.bytes(Self.january)
            let garbage = Array("truncated by a sync tool".utf8)
            try setup.replace(garbage, at: Self.january)
            try Self.add(Self.record(3), to: &loaded.document)
            for _ in 1...2 {
                do throws(StoreError) {
                    try setup.files.save(&loaded, to: Self.january)
                    Issue.record("a save over a file that does not load succeeded")
                } catch {
                    guard case .unloadableDocument(let file, .format) = error else { Issue.record("\(error)"); continue }
                    #expect(file == Self.january)
                }
                #expect(try setup.bytes(Self.january) == garbage, "the file that does not load was changed")
                #expect(throws: StoreError.self) { try setup.files.requireReadableFile(Self.january) }
            }
            #expect(setup.unreadable[Self.january] != nil)
            #expect(setup.unreadable[Self.january]?.preservedIn == Self.copyName)
            let listing = try FileManager.default.contentsOfDirectory(atPath: setup.path + "/records/2024").sorted()
            #expect(listing == ["01 (minutafs conflicted copy 2024-01-01).automerge", "01.automerge"], "one copy for one state")
            #expect(try setup.records(Self.copyName) == [Self.record(1), Self.record(3)])
            let lines = setup.events.snapshot.lines
            #expect(lines.filter { $0.contains("cannot be loaded") }.count == 1, "\(lines)")
            #expect(lines.contains { $0.contains("kept in \(Self.copyName)") })

            // A readable version arrives: merged, the file writable again.
            var phone = try Document.load(good).fork()
            try Self.add(Self.record(4), to: &phone)
            try setup.replace(phone.save(), at: Self.january)
            try setup.files.requireReadableFile(Self.january)
            #expect(try setup.files.save(&loaded, to: Self.january))
            #expect(try setup.records(Self.january) == [Self.record(1), Self.record(3), Self.record(4)])
            #expect(setup.unreadable[Self.january] == nil)
            #expect(setup.events.snapshot.lines.last?.contains("readable again") == true)
        }
    }

    @Test("an unreadable file is noted once per version")
    func markUnreadableOncePerVersion() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            let first = BackingFiles.Identity(device: 1, inode: 1, size: 1, modificationSeconds: 1, modificationNanoseconds: 0)
            let second = BackingFiles.Identity(device: 1, inode: 2, size: 1, modificationSeconds: 1, modificationNanoseconds: 0)
            setup.files.markUnreadable(Self.january, reason: .empty, identity: first)
            setup.files.markUnreadable(Self.january, reason: .empty, identity: first)
            #expect(setup.events.snapshot.lines.count == 1)
            #expect(setup.events.snapshot.lines.first?.contains("records/2024/01 is read-only") == true)
            setup.files.markUnreadable(Self.january, reason: .empty, identity: second)
            #expect(setup.events.snapshot.lines.count == 2)
            #expect(setup.unreadable[Self.january]?.since == Self.clock)
            setup.files.clearUnreadable(Self.january)
            setup.files.clearUnreadable(Self.january)
            #expect(setup.events.snapshot.lines.count == 3, "cleared twice, noted once")
            #expect(setup.unreadable.all.isEmpty)
        }
    }

    // MARK: Conflict copies

    @Test("a conflict copy is written once per state, merged into when it loads, and takes another number when it does not")
    func conflictCopies() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            var document = try Self.newDocument().document
            document.commit(time: 0)
            #expect(try setup.files.writeConflictCopy(of: document, for: Self.january) == Self.copyName)
            let written = try setup.bytes(Self.copyName)
            #expect(try setup.files.writeConflictCopy(of: document, for: Self.january) == Self.copyName)
            #expect(try setup.bytes(Self.copyName) == written, "a copy holding everything was written again")
            var other = Document()
            try Self.add(Self.record(2), to: &other)
            other.commit(time: 0)
            #expect(try setup.files.writeConflictCopy(of: other, for: Self.january) == Self.copyName)
            #expect(try setup.records(Self.copyName) == [Self.record(1), Self.record(2)], "the copy lost what it held")
            try setup.replace(Array("garbage".utf8), at: Self.copyName)
            let numbered = "records/2024/01 (minutafs conflicted copy 2024-01-01 2).automerge"
            #expect(try setup.files.writeConflictCopy(of: document, for: Self.january) == numbered)
            #expect(try setup.bytes(Self.copyName) == Array("garbage".utf8))
            #expect(try setup.records(numbered) == [Self.record(1)])
            let tags = try setup.files.writeConflictCopy(of: document, for: "tags.automerge")
            #expect(tags == "tags (minutafs conflicted copy 2024-01-01).automerge")
        }
    }

    // MARK: Merging

    @Test("a merge that changes a month's record remembers the value shown before; other merges remember nothing")
    func mergeNotesSupersededValues() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            var base = Document()
            try Self.add(Self.record(1), to: &base, comment: "old")
            base.commit(time: 0)
            var phone = base.fork()
            guard let record = RecordView.object(Self.record(1), in: phone) else { Issue.record("no record"); return }
            try phone.put(.string("phone"), forKey: "comment", in: record)
            phone.commit(time: 0)

            var elsewhere = LoadedDocument(document: base, identity: nil, view: nil, savedChangeCount: 1)
            try setup.files.merge(phone, into: &elsewhere, relative: "other.automerge")
            let probe: [(key: String, value: JSONValue)] = [("comment", .string("old"))]
            let noted = { setup.files.reconcile(probe, current: [("comment", .string("phone"))], recordID: RecordID(Self.record(1)), reading: .unknown, now: Self.clock) }
            #expect(noted() == nil, "a document that is neither a month nor the tags")

            var loaded = LoadedDocument(document: base, identity: nil, view: nil, savedChangeCount: 1)
            try setup.files.merge(base, into: &loaded, relative: Self.january)
            #expect(noted() == nil, "a merge that brought nothing")
            try setup.files.merge(phone, into: &loaded, relative: Self.january)
            #expect(loaded.document.heads == phone.heads)
            let written: [(key: String, value: JSONValue)] = [("comment", .string("old"))]
            let outcome = setup.files.reconcile(written, current: [("comment", .string("phone"))], recordID: RecordID(Self.record(1)), reading: .unknown, now: Self.clock)
            #expect(outcome?.outcomes.map(\.kind) == [.replacedUnknowingly])
            #expect(outcome?.outcomes.first?.device == String(phone.actor.hexString.prefix(8)))
        }
    }

    // MARK: Names and the folder

    @Test("names: the path the mount shows, and a path inside the store made relative")
    func names() throws {
        #expect(DocumentFiles.shownName(of: "tags.automerge") == "tags.json")
        #expect(DocumentFiles.shownName(of: "records/2024/07.automerge") == "records/2024/07")
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            #expect(setup.files.relativePath(of: setup.path + "/records/2024/01.automerge") == Self.january)
            #expect(setup.files.relativePath(of: "/elsewhere/01.automerge") == "/elsewhere/01.automerge")
            #expect(setup.files.absolute(Self.january) == setup.path + "/" + Self.january)
        }
    }

    @Test("once the store folder is moved away nothing is written, and the loss is noted")
    func folderGone() throws {
        try withTemporaryDirectory { folder in
            let setup = try Setup(in: folder)
            var loaded = try Self.newDocument()
            try FileManager.default.moveItem(atPath: setup.path, toPath: folder + "/moved")
            #expect(throws: StoreError.backingFolderGone(setup.path)) { try setup.files.save(&loaded, to: Self.january) }
            #expect(setup.events.snapshot.backingFolderGone)
            #expect(!FileManager.default.fileExists(atPath: setup.path))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/moved/records/2024").isEmpty)
        }
    }
}

@testable import MinutaStore
import Testing

/// `UnreadableFiles` alone: what is known of document files that do not load, and the one test of
/// "known unreadable and still that version".
struct UnreadableFilesTests {
    static let january = "records/2024/01.automerge"

    static func identity(inode: UInt64, size: Int64 = 10) -> BackingFiles.Identity {
        BackingFiles.Identity(device: 1, inode: inode, size: size, modificationSeconds: 100, modificationNanoseconds: 0)
    }

    @Test("nothing is known of a file before it is found unreadable")
    func emptyKnowsNothing() {
        let files = UnreadableFiles()
        #expect(files[Self.january] == nil)
        #expect(files.all.isEmpty)
        #expect(files.stillUnreadable(Self.january, identity: nil) == nil)
        #expect(files.stillUnreadable(Self.january, identity: Self.identity(inode: 1)) == nil)
    }

    @Test("what an update sets is what is read back, by path, and the update's result is returned")
    func updateAndRead() {
        let files = UnreadableFiles()
        let isNew = files.update(Self.january) { known -> Bool in
            defer { known = UnreadableDocument(reason: .empty, identity: Self.identity(inode: 7), since: 42) }
            return known == nil
        }
        #expect(isNew)
        #expect(files[Self.january]?.reason == .empty)
        #expect(files[Self.january]?.since == 42)
        #expect(files["records/2024/02.automerge"] == nil)
        #expect(Array(files.all.keys) == [Self.january])
        let again = files.update(Self.january) { known -> Bool in known == nil }
        #expect(!again)
    }

    @Test("still unreadable only while the file there is the version that failed to load")
    func stillUnreadableComparesIdentity() {
        let files = UnreadableFiles()
        files.update(Self.january) { $0 = UnreadableDocument(reason: .symbolicLink, identity: Self.identity(inode: 7), since: 1) }
        #expect(files.stillUnreadable(Self.january, identity: Self.identity(inode: 7))?.reason == .symbolicLink)
        #expect(files.stillUnreadable(Self.january, identity: Self.identity(inode: 8)) == nil, "a new file is tried again")
        #expect(files.stillUnreadable(Self.january, identity: Self.identity(inode: 7, size: 11)) == nil, "a rewritten file is tried again")
        #expect(files.stillUnreadable(Self.january, identity: nil) == nil, "a file gone is not the unreadable one")
        // Known without an identity (it could not be had): only "no file" matches it.
        files.update("tags.automerge") { $0 = UnreadableDocument(reason: .notARegularFile, identity: nil, since: 1) }
        #expect(files.stillUnreadable("tags.automerge", identity: nil)?.reason == .notARegularFile)
        #expect(files.stillUnreadable("tags.automerge", identity: Self.identity(inode: 3)) == nil)
    }

    @Test("setting nil forgets the file: it loads again")
    func clearing() {
        let files = UnreadableFiles()
        files.update(Self.january) { $0 = UnreadableDocument(reason: .empty, identity: nil, since: 1) }
        files.update("records/2024/02.automerge") { $0 = UnreadableDocument(reason: .empty, identity: nil, since: 1) }
        files.update(Self.january) { $0 = nil }
        #expect(files[Self.january] == nil)
        #expect(Array(files.all.keys) == ["records/2024/02.automerge"])
    }

    @Test("updates of the same file from many threads are all applied")
    func concurrentUpdates() async {
        let files = UnreadableFiles()
        files.update(Self.january) { $0 = UnreadableDocument(reason: .empty, identity: nil, since: 0) }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<100 {
                group.addTask { files.update(Self.january) { $0?.since += 1 } }
            }
        }
        #expect(files[Self.january]?.since == 100)
    }
}

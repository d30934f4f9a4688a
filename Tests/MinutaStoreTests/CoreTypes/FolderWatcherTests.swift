import Foundation
import Glibc
@testable import MinutaStore
import Synchronization
import Testing
import TestSupport
import FileTreeInterface

/// `FolderWatcher` lists the folders again (to watch new ones) only after events that may name a new
/// folder, and calls back for every burst of events.
struct FolderWatcherTests {
    /// One `inotify_event` record as the kernel writes it: the header, then `name` padded with NULs.
    static func event(mask: Int32, name: String) -> [UInt8] {
        var name = Array(name.utf8) + [0]
        while name.count % 16 != 0 { name.append(0) }
        var header = inotify_event()
        header.wd = 1
        header.mask = UInt32(mask)
        header.len = UInt32(name.count)
        return withUnsafeBytes(of: &header) { Array($0) } + name
    }

    @Test("a save's events (a file created, written, renamed over another, removed) name no new folder")
    func savesAddNoFolder() {
        let burst = Self.event(mask: IN_CREATE, name: ".03.automerge.minutafs-1.tmp")
            + Self.event(mask: IN_CLOSE_WRITE, name: ".03.automerge.minutafs-1.tmp")
            + Self.event(mask: IN_MOVED_FROM, name: ".03.automerge.minutafs-1.tmp")
            + Self.event(mask: IN_MOVED_TO, name: "03.automerge")
            + Self.event(mask: IN_DELETE, name: ".03.automerge.minutafs-1.tmp")
        #expect(!FolderWatcher.namesNewFolder(burst[...]))
    }

    @Test("a folder created or moved in, a lost queue, or a record cut short may name one", arguments: [
        event(mask: IN_CREATE | IN_ISDIR, name: "2031"), event(mask: IN_MOVED_TO | IN_ISDIR, name: "07"),
        event(mask: IN_Q_OVERFLOW, name: ""), Array(event(mask: IN_CREATE, name: "x").prefix(10)),
    ])
    func newFolder(_ tail: [UInt8]) {
        let burst = Self.event(mask: IN_CLOSE_WRITE, name: "03.automerge") + tail
        #expect(FolderWatcher.namesNewFolder(burst[...]))
    }

    @Test("a month folder made after the watch started is watched: a document written into it afterwards is seen")
    func newFolderWatched() throws {
        try withTemporaryDirectory { folder in
            try FileManager.default.createDirectory(atPath: folder + "/records/2024", withIntermediateDirectories: true)
            let stop = try EventSignal()
            defer { stop.signal() }
            let calls = Mutex(0)
            let watcher = FolderWatcher(root: folder, settle: 0.02, stop: stop) { calls.withLock { $0 += 1 } }
            #expect(watcher != nil)
            try FileManager.default.createDirectory(atPath: folder + "/records/2024/05", withIntermediateDirectories: true)
            #expect(eventually(within: 10) { calls.withLock { $0 } >= 1 })
            // Only a watch on the new month folder sees a file written inside it (the watch is added
            // before the callback).
            let before = calls.withLock { $0 }
            #expect(FileManager.default.createFile(atPath: folder + "/records/2024/05/photo.jpg", contents: Data([1, 2, 3])))
            #expect(eventually(within: 10) { calls.withLock { $0 } > before }, "a file in the new month folder was not seen")
        }
    }
}

import FileTreeInterface
import Synchronization
import Testing

@testable import MinutaFS

/// What the kernel is told when the tree reports a change: the names it cached are dropped only when a name
/// may have changed. Dropping names costs every cached name a new lookup (the connection's epoch), so a
/// record saved in place, which renames nothing, must drop attributes only.
@Suite("Kernel notices for a change the tree reports")
struct TreeChangeNoticeTests {
    /// Keeps every notice instead of sending it.
    final class RecordingKernel: KernelCacheInvalidating {
        let notices = Mutex<[KernelCacheNotice]>([])
        func invalidate(_ notices: [KernelCacheNotice]) { self.notices.withLock { $0 += notices } }
    }

    /// A mount of the sample tree that has looked up the record (as the kernel does before it opens it),
    /// with the inodes of the record and its folder.
    static func mountWithRecordLookedUp() throws -> (FuseFileSystem, RecordingKernel, folder: UInt64, record: UInt64) {
        let kernel = RecordingKernel()
        let fileSystem = FuseFileSystem(tree: InMemoryTree.sample(), isReadOnly: false, removalDelay: 0, invalidator: kernel, log: { _ in })
        var folder = InodeTable.rootInode
        for name in ["records", "2024", "01"] { folder = try fileSystem.lookUp(name, inDirectory: folder).inode }
        let record = try fileSystem.lookUp(TreePath.name(of: InMemoryTree.recordPath), inDirectory: folder).inode
        return (fileSystem, kernel, folder, record)
    }

    @Test("a change that keeps every name drops the attributes of what it names, and no name")
    func keepsNames() throws {
        let (fileSystem, kernel, folder, record) = try Self.mountWithRecordLookedUp()
        fileSystem.treeDidChange(TreeChange(paths: [InMemoryTree.recordPath], keepsNames: true))
        #expect(kernel.notices.withLock { $0 } == [.inode(record)], "not the folder's: it was not named")
        fileSystem.treeDidChange(TreeChange(paths: ["/records/2024/01"], keepsNames: true))
        let notices = kernel.notices.withLock { $0 }
        #expect(notices.contains(.inode(folder)))
        #expect(!notices.contains { if case .entry = $0 { true } else { false } }, "\(notices)")
        #expect(KernelCacheNotifier.plan(notices, entriesByEpoch: true).incrementsEpoch == false)
    }

    @Test("a change that may rename drops the names it reports: the kernel looks them up again")
    func mayRename() throws {
        let (fileSystem, kernel, folder, record) = try Self.mountWithRecordLookedUp()
        fileSystem.treeDidChange(TreeChange(paths: [InMemoryTree.recordPath]))
        let notices = kernel.notices.withLock { $0 }
        #expect(notices.contains(.inode(record)))
        #expect(notices.contains(.entry(parent: folder, name: TreePath.name(of: InMemoryTree.recordPath))))
        let plan = KernelCacheNotifier.plan(notices, entriesByEpoch: true)
        #expect(plan.incrementsEpoch)
        #expect(plan.folders == [folder], "the folder's kept listing goes too")
    }
}

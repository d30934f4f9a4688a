import FileTreeInterface
import Synchronization
import Testing

@testable import MinutaFS

/// A save by rename (`os.replace`, VS Code, gedit) that completes while the mount answers a request about
/// the file it replaces, from a program that resolved the name just before. On a
/// disk that program sees the old version, whole; so must it here. The tree's hook puts the rename
/// exactly between the mount's look at its own state and the tree's answer, so no timing is involved.
@Suite("A file replaced by a rename while a request about it is answered")
struct RenameDuringRequestTests {
    struct NoKernel: KernelCacheInvalidating {
        func invalidate(_ notices: [KernelCacheNotice]) {}
    }

    /// What the rename said: "renamed", or its error.
    final class Outcome: Sendable {
        let text = Mutex<String?>(nil)
    }

    static let oldVersion = Array(InMemoryTree.record.utf8)
    static let newVersion = Array(
        InMemoryTree.record.replacing("planning the sprint", with: "saved by os.replace while a reader looked, longer").utf8)
    static let recordName = TreePath.name(of: InMemoryTree.recordPath)
    static let temporaryName = "tmpk2j4x9q"

    /// A mount of the sample tree without a kernel; the record's folder and the record's inode as the kernel
    /// knows them (looked up); and a temporary file in that folder holding the next version, written and
    /// closed, ready to be renamed over the record.
    struct Setup {
        let fileSystem: FuseFileSystem
        let tree: InMemoryTree
        let folder: UInt64
        let record: UInt64

        init() throws {
            tree = InMemoryTree.sample()
            fileSystem = FuseFileSystem(tree: tree, isReadOnly: false, removalDelay: 0, invalidator: NoKernel(), log: { _ in })
            tree.setChangeHandler { [weak fileSystem] change in fileSystem?.treeDidChange(change) }
            var folder = InodeTable.rootInode
            for name in ["records", "2024", "01"] { folder = try fileSystem.lookUp(name, inDirectory: folder).inode }
            self.folder = folder
            record = try fileSystem.lookUp(RenameDuringRequestTests.recordName, inDirectory: folder).inode
            let (_, opened) = try fileSystem.create(
                RenameDuringRequestTests.temporaryName, inDirectory: folder, permissions: 0o644,
                flags: OpenFlags(isWritable: true, isExclusive: true))
            try fileSystem.write(RenameDuringRequestTests.newVersion, handle: opened.handle, at: 0)
            fileSystem.release(handle: opened.handle)
        }

        /// Has the next question about the record's attributes wait for the rename of the temporary file
        /// over the record; returns where the rename's outcome will be.
        func renameWhenTheTreeIsAsked() -> Outcome {
            let outcome = Outcome()
            let (fileSystem, folder) = (self.fileSystem, self.folder)
            tree.whenAskedForAttributes(ofPath: InMemoryTree.recordPath) {
                do {
                    try fileSystem.rename(
                        RenameDuringRequestTests.temporaryName, inDirectory: folder,
                        to: RenameDuringRequestTests.recordName, inDirectory: folder, flags: [])
                    outcome.text.withLock { $0 = "renamed" }
                } catch {
                    outcome.text.withLock { $0 = "\(error)" }
                }
            }
            return outcome
        }

        func readAll(_ inode: UInt64) throws -> [UInt8] {
            let opened = try fileSystem.open(inode: inode, flags: OpenFlags(isWritable: false))
            defer { fileSystem.release(handle: opened.handle) }
            return try fileSystem.read(handle: opened.handle, from: 0, length: 1 << 20)
        }
    }

    @Test("stat of the replaced file while the rename completes shows the old size, which its reads agree with")
    func attributesDuringRename() throws {
        let setup = try Setup()
        let outcome = setup.renameWhenTheTreeIsAsked()

        let attributes = try setup.fileSystem.attributes(ofInode: setup.record)

        #expect(outcome.text.withLock { $0 } == "renamed")
        #expect(setup.tree.bytes(at: InMemoryTree.recordPath) == Self.newVersion, "the save reached the tree")
        // With the new file's size, the kernel would cut the old inode's reads there or pad them with NULs.
        #expect(attributes.size == Self.oldVersion.count)
        #expect(try setup.readAll(setup.record) == Self.oldVersion)
        // The name leads to the new version, under another inode.
        let renamed = try setup.fileSystem.lookUp(Self.recordName, inDirectory: setup.folder)
        #expect(renamed.inode != setup.record)
        #expect(renamed.size == Self.newVersion.count)
        #expect(try setup.readAll(renamed.inode) == Self.newVersion)
    }

    @Test("open of the replaced file while the rename completes reads the old version, whole")
    func openDuringRename() throws {
        let setup = try Setup()
        // What the lookup told the kernel is old news: the open asks the tree.
        setup.fileSystem.state.withLock { $0.inodes.forgetTreeAttributes() }
        let outcome = setup.renameWhenTheTreeIsAsked()

        let bytes = try setup.readAll(setup.record)

        #expect(outcome.text.withLock { $0 } == "renamed")
        #expect(setup.tree.bytes(at: InMemoryTree.recordPath) == Self.newVersion, "the save reached the tree")
        #expect(bytes == Self.oldVersion)
    }
}

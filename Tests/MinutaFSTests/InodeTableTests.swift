import FileTreeInterface
import Testing

@testable import MinutaFS

@Suite("Inode table")
struct InodeTableTests {
    @Test("names that differ only in Unicode normalization are two paths with two numbers, though equal as Strings")
    func namesAreBytes() {
        let precomposed = "/records/caf\u{E9}.txt", decomposed = "/records/cafe\u{301}.txt"
        #expect(precomposed == decomposed)  // what a String-keyed table got wrong
        #expect(ExactPath(precomposed) != ExactPath(decomposed))
        var table = InodeTable()
        let first = table.lookUp(precomposed)
        let second = table.lookUp(decomposed)
        #expect(first != second)
        #expect(table.path(ofInode: second).map { Array($0.utf8) } == Array(decomposed.utf8))
        table.detach(decomposed)
        #expect(table.inode(atPath: precomposed) == first)
        #expect(table.inode(atPath: decomposed) == nil)
    }

    @Test("a path keeps its number while the kernel holds it; numbers are never reused")
    func stableNumbers() {
        var table = InodeTable()
        let record = table.lookUp("/records/a.json")
        #expect(record != InodeTable.rootInode)
        #expect(table.lookUp("/records/a.json") == record)
        table.forget(1, ofInode: record)
        #expect(table.inode(atPath: "/records/a.json") == record)
        let other = table.lookUp("/records/b.json")
        #expect(other != record)
        #expect(table.path(ofInode: InodeTable.rootInode) == "/")
    }

    @Test("what the kernel forgets is dropped, but the path gets its number back: the table holds no more nodes than the kernel")
    func forgottenIsDropped() {
        var table = InodeTable()
        let start = table.count
        var inodes: [UInt64] = []
        for index in 0..<1000 { inodes.append(table.lookUp("/.minutafs/history/2024-03-\(index)/records/2024/03/a.json")) }
        #expect(table.count == start + 1000)
        for inode in inodes { table.forget(1, ofInode: inode) }
        #expect(table.count == start)
        #expect(table.inode(atPath: "/.minutafs/history/2024-03-0/records/2024/03/a.json") == nil)
        // A stat, the kernel forgets the inode (a cache notice dropped its name), an open: one number,
        // or cp and tar take the file for a replaced one.
        let again = table.lookUp("/.minutafs/history/2024-03-0/records/2024/03/a.json")
        #expect(again == inodes[0])
        #expect(table.lookUp("/.minutafs/history/2024-03-9/records/2024/03/a.json") == inodes[9])
        // A new path gets a number no other path had.
        #expect(!inodes.contains(table.lookUp("/.minutafs/history/2024-04-01/records/2024/04/b.json")))
        table.forget(5, ofInode: InodeTable.rootInode)
        #expect(table.path(ofInode: InodeTable.rootInode) == "/")
    }

    @Test("an unlinked inode stays until the kernel forgets it, and its path gets a new number")
    func detach() {
        var table = InodeTable()
        let old = table.lookUp("/a.json")
        table.detach("/a.json")
        #expect(table.path(ofInode: old) == nil)
        #expect(table.inode(atPath: "/a.json") == nil)
        let new = table.lookUp("/a.json")
        #expect(new != old)
        // Forgotten, then unlinked: a file made there later is another file, with another number.
        let forgotten = table.lookUp("/b.json")
        table.forget(1, ofInode: forgotten)
        table.detach("/b.json")
        #expect(table.lookUp("/b.json") != forgotten)
        let count = table.count
        table.forget(1, ofInode: old)
        #expect(table.count == count - 1)
    }

    @Test("a rename moves the number and everything below it; the replaced file is detached")
    func move() {
        var table = InodeTable()
        let folder = table.lookUp("/x")
        let child = table.lookUp("/x/c.json")
        let replaced = table.lookUp("/y")
        table.move("/x", to: "/y")
        #expect(table.path(ofInode: folder) == "/y")
        #expect(table.path(ofInode: child) == "/y/c.json")
        #expect(table.path(ofInode: replaced) == nil)
        #expect(table.inode(atPath: "/x") == nil)
        #expect(table.inode(atPath: "/xy") == nil)
    }

    @Test("a version retained for an inode replaced by a rename lives until the kernel forgets that inode")
    func retainedVersionIsBounded() {
        var table = InodeTable()
        let old = table.lookUp("/r.json")
        let temporary = table.lookUp("/tmpk3j2")
        let version = RetainedVersion(
            contents: Array("{}".utf8),
            attributes: TreeAttributes(isDirectory: false, size: 2, modificationTime: TreeTime(seconds: 1, nanoseconds: 0), isWritable: true))
        table.retain(version, ofInode: old)
        let generation = table.pathGeneration
        table.move("/tmpk3j2", to: "/r.json")
        #expect(table.pathGeneration != generation, "a lookup racing the rename would not ask again")
        #expect(table.inode(atPath: "/r.json") == temporary)
        #expect(table.retainedVersion(ofInode: old)?.contents == Array("{}".utf8))
        #expect(table.retainedVersion(ofInode: temporary) == nil)
        let count = table.count
        table.forget(1, ofInode: old)
        #expect(table.count == count - 1)
        #expect(table.retainedVersion(ofInode: old) == nil)
    }

    @Test("exchange swaps two paths' numbers")
    func exchange() {
        var table = InodeTable()
        let first = table.lookUp("/.a.swp")
        let second = table.lookUp("/.b.swp")
        table.exchange("/.a.swp", "/.b.swp")
        #expect(table.inode(atPath: "/.a.swp") == second)
        #expect(table.path(ofInode: first) == "/.b.swp")
    }

    @Test("tree paths", arguments: [
        ("/", "/", ""), ("/tags.json", "/", "tags.json"), ("/records/2024/01/x.json", "/records/2024/01", "x.json"),
    ])
    func paths(path: String, parent: String, name: String) {
        #expect(TreePath.parent(of: path) == parent)
        #expect(TreePath.name(of: path) == name)
        if !name.isEmpty { #expect(TreePath.appending(name, to: parent) == path) }
    }

    @Test("isWithin matches whole components only")
    func within() {
        #expect(TreePath.isWithin("/records/2024", directory: "/records"))
        #expect(TreePath.isWithin("/records", directory: "/records"))
        #expect(!TreePath.isWithin("/records2", directory: "/records"))
        #expect(TreePath.isWithin("/anything", directory: "/"))
    }

    @Test("byte buffers write with a zero-filled gap, resize and slice like a file")
    func bufferEdits() {
        var bytes: [UInt8] = [1, 2, 3]
        bytes.write([9], at: 5)
        #expect(bytes == [1, 2, 3, 0, 0, 9])
        bytes.write([7, 7], at: 1)
        #expect(bytes == [1, 7, 7, 0, 0, 9])
        bytes.resize(to: 2)
        #expect(bytes == [1, 7])
        #expect(bytes.bytes(from: 1, length: 10) == [7])
        #expect(bytes.bytes(from: 5, length: 10) == [])
    }
}

@Suite("Inode table: remembered numbers")
struct InodeTableMemoryTests {
    @Test("the numbers of forgotten paths are remembered up to a bound, the oldest dropped first")
    func boundedMemory() {
        var table = InodeTable()
        let count = InodeTable.rememberedNumbers + 10
        var first: [UInt64] = []
        for index in 0..<count {
            let inode = table.lookUp("/h/\(index).json")
            if index < 10 { first.append(inode) }
            table.forget(1, ofInode: inode)
        }
        // The ten oldest were dropped: a new number each; the newest keep theirs.
        #expect(!first.contains(table.lookUp("/h/0.json")))
        let newest = "/h/\(count - 1).json"
        let before = table.inode(atPath: newest)
        #expect(before == nil)
        let again = table.lookUp(newest)
        table.forget(1, ofInode: again)
        #expect(table.lookUp(newest) == again)
    }
}

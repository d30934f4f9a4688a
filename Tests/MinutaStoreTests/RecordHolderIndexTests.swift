@testable import MinutaStore
import Testing

/// The index of which month documents may hold which record ids.
struct RecordHolderIndexTests {
    static let january = Month(year: 2024, month: 1)!, february = Month(year: 2024, month: 2)!

    static func identity(_ version: Int) -> BackingFiles.Identity {
        BackingFiles.Identity(device: 1, inode: 1, size: Int64(version), modificationSeconds: version, modificationNanoseconds: 0)
    }

    @Test("an id arriving in a second document affects both months; a file read again only when it changes")
    func holdersFollowTheFiles() {
        var index = RecordHolderIndex()
        var reads: [Month] = []
        var contents: [Month: Set<String>] = [Self.january: ["a", "b"], Self.february: ["c"]]
        func update(_ files: [(Month, Int?)]) -> Set<Month> {
            index.update(files: files.map { ($0.0, $0.1.map(Self.identity)) }) { month in
                reads.append(month)
                return contents[month] ?? []
            }
        }
        #expect(update([(Self.january, 1), (Self.february, 1)]).isEmpty)
        #expect(index.otherHolders(of: RecordID("A"), besides: Self.january).isEmpty)
        #expect(update([(Self.january, 1), (Self.february, 1)]).isEmpty)
        #expect(reads == [Self.january, Self.february], "an unchanged file was read again")

        contents[Self.february] = ["c", "A"]  // the id in another case: the same record
        #expect(update([(Self.january, 1), (Self.february, 2)]) == [Self.january, Self.february])
        #expect(index.otherHolders(of: RecordID("a"), besides: Self.january) == [Self.february])
        #expect(index.otherHolders(of: RecordID("A"), besides: Self.february) == [Self.january])

        // February's file is gone: the record is January's alone again.
        #expect(update([(Self.january, 1), (Self.february, nil)]) == [Self.january, Self.february])
        #expect(index.otherHolders(of: RecordID("a"), besides: Self.january).isEmpty)
        #expect(update([(Self.january, 1)]).isEmpty)
    }
}

import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// Another device edits a record while this store moves it to another month; the other device's old
/// month document arrives as a conflict copy. Its edit is carried to the record's new place, or, when
/// this store changed the same field, listed in `.minutafs/conflicts`.
struct MovedRecordEditTests {
    static let may = Month(year: 2024, month: 5)!
    static let june = Month(year: 2024, month: 6)!
    static let name = "2024-05-15_065335.json"

    func comment(_ store: Store, _ name: String, in month: Month) throws -> String? {
        let file = try #require(try store.recordFile(named: name, in: month))
        guard case .string(let text)? = try JSONParser.parse(file.contents)["comment"] else { return nil }
        return text
    }

    /// Moves the record to June in `desktop` (also setting the comment when `desktopComment` is given),
    /// while `phone` sets the comment in May; delivers the phone's May document as a Dropbox conflict copy.
    /// With `remounting`, the desktop's store is opened afresh (with the same state folder, if any) after
    /// the move and before the delivery, as a mount that ended and started again.
    func moveWhilePhoneEdits(
        in folder: String, desktopComment: String?, stateDirectory: String? = nil, remounting: Bool = false
    ) throws -> (desktop: Store, id: String) {
        let path = try StoreFixture.copyOfAppStore(into: folder)
        let phonePath = try StoreFixture.copyOfAppStore(into: folder, name: "phone")
        var desktop = try Store(folder: FilePath(path), timeZone: .utc, stateDirectory: stateDirectory.map { FilePath($0) })
        let phone = try Store(folder: FilePath(phonePath), timeZone: .utc)

        let file = try #require(try desktop.recordFile(named: Self.name, in: Self.may))
        var moved = String(decoding: file.contents, as: UTF8.self)
            .replacingOccurrences(of: "2024-05-15T06:53:35.681Z", with: "2024-06-02T08:00:00Z")
            .replacingOccurrences(of: "2024-05-15T07:30:32.206Z", with: "2024-06-02T09:00:00Z")
        let original = try #require(try comment(desktop, Self.name, in: Self.may))
        if let desktopComment { moved = moved.replacingOccurrences(of: original, with: desktopComment) }
        #expect(try desktop.writeRecordFile(Array(moved.utf8), named: Self.name, in: Self.may).month == Self.june)
        if remounting { desktop = try Store(folder: FilePath(path), timeZone: .utc, stateDirectory: stateDirectory.map { FilePath($0) }) }

        let phoneFile = try #require(try phone.recordFile(named: Self.name, in: Self.may))
        let edited = String(decoding: phoneFile.contents, as: UTF8.self).replacingOccurrences(of: original, with: "edited on the phone")
        _ = try phone.writeRecordFile(Array(edited.utf8), named: Self.name, in: Self.may)
        try FileManager.default.copyItem(atPath: phonePath + "/records/2024/05.automerge",
                                         toPath: path + "/records/2024/05 (Phone's conflicted copy 2024-06-02).automerge")
        #expect(try desktop.mergeConflictCopies().count == 1)
        return (desktop, file.id)
    }

    @Test("the phone's comment reaches the record's new month")
    func carried() throws {
        try withTemporaryDirectory { folder in
            let (desktop, id) = try moveWhilePhoneEdits(in: folder, desktopComment: nil)
            #expect(try desktop.carryEditsToMovedRecords() == ["records/2024/06"])
            #expect(try comment(desktop, "2024-06-02_080000.json", in: Self.june) == "edited on the phone")
            #expect(try desktop.recordFiles(in: Self.may).allSatisfy { $0.id != id })
            #expect(try desktop.carryEditsToMovedRecords().isEmpty, "carried once")
            // On disk too: a store opened afresh sees it.
            let reopened = try Store(folder: desktop.folder, timeZone: .utc)
            #expect(try comment(reopened, "2024-06-02_080000.json", in: Self.june) == "edited on the phone")
        }
    }

    @Test("after a remount the phone's comment still reaches the new month: moves are remembered in the state folder")
    func carriedAfterRemount() throws {
        try withTemporaryDirectory { folder in
            let state = folder + "/state"
            let (desktop, id) = try moveWhilePhoneEdits(in: folder, desktopComment: nil, stateDirectory: state, remounting: true)
            #expect(try desktop.carryEditsToMovedRecords() == ["records/2024/06"])
            #expect(try comment(desktop, "2024-06-02_080000.json", in: Self.june) == "edited on the phone")
            #expect(try desktop.recordFiles(in: Self.may).allSatisfy { $0.id != id })
            #expect(try desktop.carryEditsToMovedRecords().isEmpty, "carried once")
            // Once carried, a later remount does not carry it again.
            let again = try Store(folder: desktop.folder, timeZone: .utc, stateDirectory: FilePath(state))
            _ = try again.mergeConflictCopies()
            #expect(try again.carryEditsToMovedRecords().isEmpty)
        }
    }

    @Test("without a state folder a remount forgets the move, and the phone's comment stays in the old month's history")
    func forgottenWithoutStateFolder() throws {
        try withTemporaryDirectory { folder in
            let (desktop, _) = try moveWhilePhoneEdits(in: folder, desktopComment: nil, remounting: true)
            #expect(try desktop.carryEditsToMovedRecords().isEmpty)
            #expect(try comment(desktop, "2024-06-02_080000.json", in: Self.june) != "edited on the phone")
        }
    }

    @Test("when this store changed the same field, its value stays and the phone's is listed as a conflict")
    func concurrent() throws {
        try withTemporaryDirectory { folder in
            let (desktop, id) = try moveWhilePhoneEdits(in: folder, desktopComment: "edited on the desktop")
            _ = try desktop.carryEditsToMovedRecords()
            #expect(try comment(desktop, "2024-06-02_080000.json", in: Self.june) == "edited on the desktop")
            let conflicts = try desktop.conflictReport().joined()
            #expect(conflicts.contains("records/2024/06/\(id): comment: shows \"edited on the desktop\"; also written concurrently (on another device, before the record moved from records/2024/05): \"edited on the phone\""), "\(conflicts)")
        }
    }
}

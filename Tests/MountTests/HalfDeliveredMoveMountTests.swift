import AutomergeKit
import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// Another device moved a record to another month; the sync tool delivers the new month's document
/// before the old one's. Through the real mount, the record goes on being shown once: it leaves the
/// old month's listing as soon as the new document arrives, and nothing is listed twice once the old
/// one arrives too.
struct HalfDeliveredMoveMountTests {
    static let id = "A0400CA0-E4B2-4E0E-B1DC-02BC9EAA0586"
    static let may = Month(year: 2024, month: 5)!, june = Month(year: 2024, month: 6)!

    /// The sample store at `folder/store` and a copy of it at `folder/phone` (the other device).
    func storeAndPhone(in folder: String) throws -> (store: String, phone: String) {
        let store = folder + "/store", phone = folder + "/phone"
        try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: store)
        try Shell.run("chmod -R u+w '\(store)'")
        try FileManager.default.copyItem(atPath: store, toPath: phone)
        return (store, phone)
    }

    /// The phone moves the record from May to June by changing its times.
    func moveOnThePhone(_ phoneStore: String) throws {
        let phone = try Store(folder: FilePath(phoneStore), timeZone: .utc)
        let name = try #require(try phone.recordFiles(in: Self.may).first { $0.id == Self.id }?.name)
        let text = String(decoding: try #require(try phone.recordFile(named: name, in: Self.may)).contents, as: UTF8.self)
        let moved = text.replacingOccurrences(of: "2024-05-15T06:53:35.681Z", with: "2024-06-02T08:00:00Z")
            .replacingOccurrences(of: "2024-05-15T07:30:32.206Z", with: "2024-06-02T09:00:00Z")
        #expect(try phone.writeRecordFile(Array(moved.utf8), named: name, in: Self.may).month == Self.june)
    }

    @Test("the new month's document arrives first: the record moves in the listing at once, and is never shown twice")
    func newDocumentFirst() throws {
        try withTemporaryDirectory { folder in
            let (store, phoneStore) = try storeAndPhone(in: folder)
            let id = Self.id, may = Self.may, june = Self.june

            let mounted = try MountedStore(in: folder, copyingSample: false)
            let shown = { (month: Month) throws -> [String] in
                let folder = mounted.mountPoint + "/" + month.folderPath
                return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
                    .filter { (try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8))?.contains(id) == true }
            }
            #expect(try shown(may).count == 1)
            #expect(try shown(june).isEmpty)

            try moveOnThePhone(phoneStore)

            // The sync tool delivers June (a temporary file renamed over the document), May not yet.
            try deliver(june.documentPath, from: phoneStore, to: store)
            let movedInListing = eventually(within: 10) { ((try? shown(may)) ?? ["?"]).isEmpty && ((try? shown(june)) ?? []).count == 1 }
            #expect(movedInListing, "May shows \((try? shown(may)) ?? []), June \((try? shown(june)) ?? [])")
            let status = mounted.mountPoint + "/.minutafs/status"
            let listedTwice = try mounted.text(status)
            #expect(listedTwice.contains("records in two documents: \(id) shown in records/2024/06, also in records/2024/05.automerge (not shown)"),
                    "\(listedTwice)")

            // May's deletion arrives: still shown once, and no longer held twice.
            try deliver(may.documentPath, from: phoneStore, to: store)
            let settled = eventually(within: 10) { (try? mounted.text(status))?.contains("records in two documents: none") ?? false }
            #expect(settled, "\((try? mounted.text(status)) ?? "")")
            #expect(try shown(may).isEmpty)
            #expect(try shown(june).count == 1)
            #expect(mounted.unmount() == 0)
            let mayOnDisk = try Document.load(Fixtures.contents(ofFileAtPath: store + "/" + may.documentPath))
            #expect(mayOnDisk.value(of: .root, key: id) == nil)
        }
    }

    @Test("a record already in both documents when the mount starts is shown once, at its new place")
    func twiceAtMount() throws {
        try withTemporaryDirectory { folder in
            let (store, phoneStore) = try storeAndPhone(in: folder)
            let id = Self.id, may = Self.may, june = Self.june
            try moveOnThePhone(phoneStore)
            try deliver(june.documentPath, from: phoneStore, to: store)

            let mounted = try MountedStore(in: folder, copyingSample: false)
            let holding = { (month: Month) -> Int in
                let folder = mounted.mountPoint + "/" + month.folderPath
                return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
                    (try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8))?.contains(id) == true
                }.count
            }
            let once = eventually(within: 10) { holding(may) == 0 && holding(june) == 1 }
            #expect(once, "May shows it \(holding(may)) times, June \(holding(june))")
            #expect(mounted.unmount() == 0)
        }
    }

    /// Copies a document the way sync tools do: written beside it under a temporary name, then renamed.
    func deliver(_ document: String, from source: String, to destination: String) throws {
        let temporary = destination + "/" + document + ".syncthing-tmp"
        try FileManager.default.copyItem(atPath: source + "/" + document, toPath: temporary)
        #expect(rename(temporary, destination + "/" + document) == 0)
    }
}

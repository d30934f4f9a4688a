import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// The kernel keeps folder listings (`FOPEN_CACHE_DIR` and `FOPEN_KEEP_CACHE` on `opendir`),
/// so a warm `ls -R` asks the mount nothing. A kept listing must still follow every change: made
/// through the mount (the kernel drops it itself, or the mount invalidates the folder when the store
/// files a record elsewhere) and delivered by the sync tool (the mount invalidates the folder).
@Suite(.serialized)
struct ListingCacheMountTests {
    /// The record files `ls` shows in `folder`.
    static func records(_ folder: String) throws -> Set<String> {
        let listed = try Shell.run("ls -1 '\(folder)'")
        try #require(listed.status == 0, "ls \(folder): \(listed.output)")
        return Set(listed.output.split(separator: "\n").map(String.init).filter { $0.hasSuffix(".json") })
    }

    static let newRecord = #"{"startTime": "2024-01-20T10:00:00Z", "endTime": "2024-01-20T11:00:00Z", "comment": "listing test"}"#

    @Test("a kept listing shows records created, moved to another month and deleted through the mount")
    func changesThroughTheMount() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let february = mounted.mountPoint + "/records/2024/02"
            let january = try Self.records(mounted.january)
            let februaryBefore = try Self.records(february)
            // Listed twice: the second comes from the kernel's kept listing.
            #expect(try Self.records(mounted.january) == january)
            let sorted = january.sorted()
            try #require(sorted.count >= 3, "the sample January has \(sorted.count) records")

            // Created: written as new.json, filed by the store under a name from its start.
            _ = FileManager.default.createFile(atPath: folder + "/new.json", contents: Data(Self.newRecord.utf8))
            let copied = try Shell.run("cp '\(folder)/new.json' '\(mounted.january)/new.json'")
            #expect(copied.status == 0, "\(copied.output)")
            var created: Set<String> = []
            let shown = eventually(within: 10) {
                guard let now = try? Self.records(mounted.january) else { return false }
                created = now.subtracting(january)
                return created.count == 1 && !now.contains("new.json") && now.isSuperset(of: january)
            }
            #expect(shown, "January now: \((try? Self.records(mounted.january).sorted()) ?? [])")

            // Moved: a new start in February takes the record out of January's listing and into February's.
            let moved = sorted[0]
            let edit = try Shell.run("sed -i 's/\"2024-01-/\"2024-02-/g' '\(mounted.january)/\(moved)'")
            #expect(edit.status == 0, "\(edit.output)")
            let movedOut = eventually(within: 10) {
                (try? Self.records(mounted.january)).map { !$0.contains(moved) } ?? false
                    && (try? Self.records(february)).map { $0.subtracting(februaryBefore).count == 1 } ?? false
            }
            #expect(movedOut, "January: \((try? Self.records(mounted.january).sorted()) ?? []), February: \((try? Self.records(february).sorted()) ?? [])")

            // Deleted.
            let deleted = sorted[1]
            #expect(try Shell.run("rm '\(mounted.january)/\(deleted)'").status == 0)
            #expect(eventually(within: 10) { (try? Self.records(mounted.january)).map { !$0.contains(deleted) } ?? false })

            // A rejected save adds a file to `.minutafs/rejected` without a request in that folder: listed
            // before and after, it shows there (a read-only folder's listing is never kept).
            let rejected = mounted.mountPoint + "/.minutafs/rejected"
            let rejectedBefore = try FileManager.default.contentsOfDirectory(atPath: rejected)
            #expect(MountClient.write(Array("{ broken".utf8), to: mounted.january + "/" + sorted[2]).errno == EINVAL)
            let rejectedAfter = try FileManager.default.contentsOfDirectory(atPath: rejected)
            #expect(rejectedAfter.count == rejectedBefore.count + 1, "\(rejectedBefore) -> \(rejectedAfter)")
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("a record saved with a new start is listed under its new name by the ls right after the close, and no longer under the old")
    func renamedBySaveListedAtOnce() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let first = #"{"startTime": "2024-01-21T08:00:00Z", "endTime": "2024-01-21T10:00:00Z", "comment": "renamed by its saves"}"#
            #expect(MountClient.write(Array(first.utf8), to: mounted.january + "/renamed.json").errno == 0)
            var name = "2024-01-21_080000.json"
            let saved = try Shell.run(#"cat "$f""#, environment: ["f": mounted.january + "/" + name])
            try #require(saved.status == 0, "\(saved.output)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(saved.output.utf8)) as? [String: Any])
            let id = try #require(object["id"] as? String)
            // Each save gives the record a new start, so the store files it under a new name; the `ls`
            // that follows the `close` at once must show that name and not the one it replaced (the kernel
            // keeps the folder's listing, and the save's answer waits until it was told to drop it).
            for minute in 1...30 {
                let start = String(format: "2024-01-21T08:%02d:00Z", minute)
                let next = String(format: "2024-01-21_08%02d00.json", minute)
                let record = #"{"id": "\#(id)", "startTime": "\#(start)", "endTime": "2024-01-21T10:00:00Z", "comment": "renamed by its saves"}"#
                let listed = try Shell.run(#"set -e; printf '%s\n' "$r" > "$m/$old"; ls -1 "$m""#,
                                           environment: ["r": record, "m": mounted.january, "old": name])
                #expect(listed.status == 0, "\(minute): \(listed.output)")
                let names = Set(listed.output.split(separator: "\n").map(String.init))
                #expect(names.contains(next) && !names.contains(name), "\(minute): \(name) -> \(next), listed \(names.sorted())")
                name = next
            }
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("a kept listing shows what the sync tool delivers: a conflict copy merged, a document replaced, by the next passes")
    func changesFromTheSyncTool() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let february = mounted.mountPoint + "/records/2024/02"
            let januaryBefore = try Self.records(mounted.january)
            let februaryBefore = try Self.records(february)
            #expect(try Self.records(mounted.january) == januaryBefore)
            #expect(try Self.records(february) == februaryBefore)

            // Another device: the same store, changed through the store's own API.
            let device = folder + "/device"
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: device)
            try Shell.run("chmod -R u+w '\(device)'")
            let other = try Store(folder: FilePath(device), timeZone: .utc)
            let januaryMonth = try #require(Month(year: 2024, month: 1))
            _ = try other.writeRecordFile(Array(Self.newRecord.utf8), named: "new.json", in: januaryMonth)

            // Delivered as a conflict copy beside the mounted store's January: merged, the new record shows.
            let delivery = folder + "/delivery.automerge"
            try FileManager.default.copyItem(atPath: device + "/records/2024/01.automerge", toPath: delivery)
            let copy = mounted.store + "/records/2024/01 (Bob's conflicted copy 2024-06-01 1).automerge"
            #expect(rename(delivery, copy) == 0)
            var afterCopy: Set<String> = []
            let merged = mounted.withinTwoPasses {
                afterCopy = (try? Self.records(mounted.january)) ?? []
                return afterCopy.subtracting(januaryBefore).count == 1 && afterCopy.isSuperset(of: januaryBefore)
            }
            #expect(merged, "January now: \(afterCopy.sorted())")

            // The device moves a January record to February; both documents are replaced whole.
            let moving = try #require(try other.recordFiles(in: januaryMonth).first { januaryBefore.contains($0.name) })
            let movedBytes = String(decoding: moving.contents, as: UTF8.self).replacingOccurrences(of: "\"2024-01-", with: "\"2024-02-")
            _ = try other.writeRecordFile(Array(movedBytes.utf8), named: moving.name, in: januaryMonth)
            for month in ["01", "02"] {
                try FileManager.default.copyItem(atPath: device + "/records/2024/\(month).automerge", toPath: delivery)
                #expect(rename(delivery, mounted.store + "/records/2024/\(month).automerge") == 0)
            }
            let replaced = mounted.withinTwoPasses {
                (try? Self.records(mounted.january)).map { !$0.contains(moving.name) } ?? false
                    && (try? Self.records(february)).map { $0.subtracting(februaryBefore).count == 1 } ?? false
            }
            #expect(replaced, "January: \((try? Self.records(mounted.january).sorted()) ?? []), February: \((try? Self.records(february).sorted()) ?? [])")
            #expect(mounted.unmount() == 0)
        }
    }
}

import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// A mount is never taken for a store (SPEC 5b): it looks like a legacy JSON store
/// (`tags.json`, `records/YYYY/MM/*.json`), so `migrate --cleanup MOUNT` once wrote documents into
/// the mount, verified against them and removed every record through it. Every command given a
/// minutafs mount, or a path in one, names the store it mounts and stops, changing nothing.
@Suite(.serialized)
struct MountIsNotAStoreTests {
    /// The record files the mount shows: the store's records.
    static func recordCount(in mountPoint: String) -> Int {
        let enumerator = FileManager.default.enumerator(atPath: mountPoint + "/records")
        var count = 0
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".json") { count += 1 }
        }
        return count
    }

    @Test("the kernel's mount table shows the mount as fuse.minutafs with the store as its source")
    func mountTableShowsStore() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let table = try MountTable.current()
            let mount = try #require(table.mount(containing: FilePath(mounted.mountPoint + "/records/2024")))
            #expect(mount.mountPoint == FilePath(mounted.mountPoint))
            #expect(mount.isMinutafs && mount.isFUSE)
            #expect(mount.source == mounted.store)
            #expect(table.mount(containing: FilePath(mounted.store))?.isMinutafs == false)
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("migrate --cleanup on a mount (as `minutafs mount s m` then `migrate --cleanup m`) is refused naming the store; no record is removed")
    func migrateCleanupRefused() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let records = Self.recordCount(in: mounted.mountPoint)
            #expect(records > 0)
            let before = try folderSnapshot(mounted.store)
            let listing = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            for arguments in [["migrate", "--cleanup", "mnt"], ["migrate", "mnt"], ["migrate", "--cleanup", "mnt/"], ["migrate", "--cleanup", "./mnt/records/.."]] {
                let result = try MinutafsBinary.run(arguments, in: folder)
                let given = arguments.last ?? ""
                #expect(result.status == 1, "\(arguments): \(result.errorText)")
                #expect(result.errorText == "minutafs: \(given) is a minutafs mount of \(mounted.store); give \(mounted.store)\n", "\(arguments): \(result.errorText)")
                #expect(!result.errorText.contains("run `minutafs migrate"), "\(result.errorText)")
                #expect(result.outputText.isEmpty, "\(result.outputText)")
            }
            #expect(Self.recordCount(in: mounted.mountPoint) == records)
            #expect(try folderSnapshot(mounted.store) == before)
            // No backup beside the mount or the store.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == listing)
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("check, merge, export, report, log, doc, inspect, mount and demo on a mount or a path in it are refused naming the store, exit 1, nothing changed")
    func everyCommandRefuses() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let store = mounted.store
            let mountPoint = mounted.mountPoint
            let records = Self.recordCount(in: mountPoint)
            let before = try folderSnapshot(store)
            try FileManager.default.createDirectory(atPath: folder + "/second", withIntermediateDirectories: false)
            let record = mounted.january + "/" + BadInput.recordName
            let document = store + "/records/2024/01.automerge"
            let atMountPoint = "\(mountPoint) is a minutafs mount of \(store); give \(store)"
            let inMount = { (path: String) in "\(path) is in \(mountPoint), a minutafs mount of \(store); give \(store)" }
            let inMountDocument = { (path: String) in
                "\(path) is in \(mountPoint), a minutafs mount of \(store); give a document of \(store) (tags.automerge or records/YYYY/MM.automerge)"
            }
            let cases: [([String], String)] = [
                (["check", mountPoint], atMountPoint),
                (["check", mountPoint + "/records/2024"], inMount(mountPoint + "/records/2024")),
                (["merge", mountPoint], atMountPoint),
                (["merge", mountPoint + "/records"], inMount(mountPoint + "/records")),
                (["export", mountPoint, folder + "/export", "--timezone", "UTC"], atMountPoint),
                (["export", store, mountPoint + "/export", "--timezone", "UTC"], inMount(mountPoint + "/export")),
                (["report", mountPoint], atMountPoint),
                (["report", mountPoint + "/records/2024", "--month", "2024-01"], inMount(mountPoint + "/records/2024")),
                (["log", mountPoint, BadInput.recordID], atMountPoint),
                (["migrate", mountPoint + "/records/2024"], inMount(mountPoint + "/records/2024")),
                (["doc", "compact", mountPoint + "/tags.json"], inMountDocument(mountPoint + "/tags.json")),
                (["doc", "compact", document, "-o", mountPoint + "/records/2024/01.automerge"], inMountDocument(mountPoint + "/records/2024/01.automerge")),
                (["doc", "merge", "-o", folder + "/merged.automerge", document, record], inMountDocument(record)),
                (["inspect", record], inMountDocument(record)),
                (["inspect", "--heads", mountPoint + "/tags.json"], inMountDocument(mountPoint + "/tags.json")),
                (["mount", mountPoint, folder + "/second"], atMountPoint),
                (["demo", mountPoint + "/records/2024/01/demo"],
                 "\(mountPoint)/records/2024/01/demo is in \(mountPoint), a minutafs mount of \(store); a store is written to a folder outside any minutafs mount"),
            ]
            for (arguments, message) in cases {
                let result = try MinutafsBinary.run(arguments)
                #expect(result.status == 1, "\(arguments): \(result.errorText)")
                #expect(result.errorText == "minutafs: \(message)\n", "\(arguments): \(result.errorText)")
                #expect(!result.errorText.contains("migrate"), "\(arguments): \(result.errorText)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder + "/export"))
            #expect(!FileManager.default.fileExists(atPath: folder + "/merged.automerge"))
            #expect(!MountedStore.isMounted(folder + "/second"))
            #expect(Self.recordCount(in: mountPoint) == records)
            #expect(try folderSnapshot(store) == before)

            // The file form of `log` (a record file in a mount) is what the mount is for, and still works.
            let log = try MinutafsBinary.run(["log", record])
            #expect(log.status == 0, "\(log.errorText)")
            // So does every command given the store itself while it is mounted (reading ones).
            let check = try MinutafsBinary.run(["check", store])
            #expect(check.status == 0, "\(check.errorText)")
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("migrate writes only into a folder outside any FUSE mount unless given --allow-fuse-destination")
    func migrateRefusesFUSEDestination() throws {
        try withTemporaryDirectory { folder in
            // A FUSE filesystem of another type: minutafs itself under another subtype.
            let mounted = try MountedStore(in: folder, options: ["subtype=elsewhere"])
            #expect(try MountTable.current().mount(containing: FilePath(mounted.mountPoint))?.fileSystemType == "fuse.elsewhere")
            let records = Self.recordCount(in: mounted.mountPoint)
            let before = try folderSnapshot(mounted.store)
            for given in ["mnt", "mnt/records/2024"] {
                let result = try MinutafsBinary.run(["migrate", "--cleanup", given], in: folder)
                #expect(result.status == 1, "\(given): \(result.errorText)")
                #expect(result.errorText == "minutafs: \(given) is in a FUSE filesystem (fuse.elsewhere \(mounted.store) mounted at \(mounted.mountPoint)); migrate writes only into folders outside FUSE mounts. Give --allow-fuse-destination to migrate there anyway\n", "\(result.errorText)")
            }
            #expect(Self.recordCount(in: mounted.mountPoint) == records)
            #expect(try folderSnapshot(mounted.store) == before)
            #expect(mounted.unmount() == 0)
            // The option is known (here the folder is not there at all).
            let allowed = try MinutafsBinary.run(["migrate", "--allow-fuse-destination", folder + "/none"])
            #expect(allowed.status == 1 && allowed.errorText == "minutafs: \(folder)/none: no such folder\n", "\(allowed.errorText)")
        }
    }
}

import Foundation
import MinutaStore
import Testing
import TestSupport

/// A save from a read made before a merge never reverts another device's edit (SPEC 5b), for a script
/// that reads and later writes, for `sed -i`, and for vim reloading with `:e!` after the delivery.
@Suite(.serialized) struct StaleSaveMountTests {
    static let phoneEnd = "2024-01-03T09:00:00Z"

    /// Writes `store`'s January with the record's `endTime` set to `phoneEnd` by another device into
    /// `folder/phone.automerge` (to be delivered later).
    static func phoneDocument(from store: String, folder: String) throws -> String {
        let device = folder + "/phone"
        try FileManager.default.createDirectory(atPath: device + "/records/2024", withIntermediateDirectories: true)
        #expect(try Shell.run("cp '\(store)/records/2024/01.automerge' '\(device)/records/2024/01.automerge'").status == 0)
        let phone = try Store(path: device, timeZone: .utc)
        let january = try #require(Month(year: 2024, month: 1))
        let file = try #require(try phone.recordFiles(in: january).first { $0.id == BadInput.recordID })
        let text = String(decoding: file.contents, as: UTF8.self)
        let edited = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix("  \"endTime\": ") ? "  \"endTime\": \"\(phoneEnd)\"," : String(line)
        }.joined(separator: "\n")
        #expect(edited != text)
        _ = try phone.writeRecordFile(Array(edited.utf8), named: file.name, in: january)
        return device + "/records/2024/01.automerge"
    }

    /// A shell line that delivers the phone's January as a sync tool does (beside, then renamed over)
    /// and waits until the mount shows the phone's endTime.
    static func deliveryCommand(_ phone: String, mounted: MountedStore) -> String {
        let target = mounted.store + "/records/2024/01.automerge"
        let record = mounted.january + "/" + BadInput.recordName
        return "cp '\(phone)' '\(target).incoming' && mv '\(target).incoming' '\(target)' && "
            + "for i in $(seq 100); do grep -q '\(phoneEnd)' '\(record)' && exit 0; sleep 0.1; done; exit 1"
    }

    static func endTime(_ path: String) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(try Fixtures.contents(ofFileAtPath: path))) as? [String: Any]
        return object?["endTime"] as? String
    }

    @Test("a script that read before the merge and writes after it keeps the phone's endTime")
    func script() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let phone = try Self.phoneDocument(from: mounted.store, folder: folder)
            let record = mounted.january + "/" + BadInput.recordName
            let script = """
                import json, subprocess, sys
                path, delivery = sys.argv[1], sys.argv[2]
                with open(path) as f:
                    record = json.load(f)
                subprocess.run(["bash", "-c", delivery], check=True)
                record["comment"] = "from the script"
                with open(path, "w") as f:
                    json.dump(record, f, indent=2)
                """
            _ = try PythonScript.run(script, arguments: [record, Self.deliveryCommand(phone, mounted: mounted)])
            #expect(try Self.endTime(record) == Self.phoneEnd, "the phone's endTime was reverted")
            #expect(try mounted.text(record).contains("from the script"))
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/conflicts").isEmpty)
            #expect(mounted.unmount() == 0)
            let fresh = try Store(path: mounted.store, timeZone: .utc)
            let january = try #require(Month(year: 2024, month: 1))
            let file = try #require(try fresh.recordFiles(in: january).first { $0.id == BadInput.recordID })
            #expect(String(decoding: file.contents, as: UTF8.self).contains(Self.phoneEnd))
        }
    }

    @Test("sed -i and vim after :e!, run once the phone's change was delivered, keep it")
    func sedAndVim() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let phone = try Self.phoneDocument(from: mounted.store, folder: folder)
            let record = mounted.january + "/" + BadInput.recordName
            _ = try mounted.text(record)
            // vim reads the file, the phone's change arrives while it is open, `:e!` reloads, then the edit.
            let delivery = folder + "/deliver.sh"
            #expect(FileManager.default.createFile(atPath: delivery, contents: Data(Self.deliveryCommand(phone, mounted: mounted).utf8)))
            let vim = try Shell.run("HOME=/tmp vim -Es -u DEFAULTS -i NONE -c 'silent !bash \(delivery)' -c 'e!' "
                + "-c '%s/an Jürgen/by vim/' -c 'wq' '\(record)'")
            #expect(vim.status == 0, "\(vim.output)")
            #expect(try mounted.text(record).contains("by vim"))
            #expect(try Self.endTime(record) == Self.phoneEnd)
            let sed = try Shell.run("sed -i 's/by vim/by sed/' '\(record)'")
            #expect(sed.status == 0, "\(sed.output)")
            #expect(try mounted.text(record).contains("by sed"))
            #expect(try Self.endTime(record) == Self.phoneEnd)
            #expect(mounted.unmount() == 0)
        }
    }
}

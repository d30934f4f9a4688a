import Foundation
import Testing
import TestSupport

/// A desktop mount in UTC and a phone's store in Berlin share a record the phone filed in February
/// (Feb 1 00:20 in Berlin, Jan 31 23:20 UTC). Saves on the desktop that do not change its start leave
/// it in February, so the phone's later edit, arriving as a Dropbox conflict copy, is kept.
@Suite(.serialized)
struct TimeZoneFilingMountTests {
    static let record = #"{"startTime": "2024-02-01T00:20:00+01:00", "endTime": "2024-02-01T01:20:00+01:00", "comment": "standup", "images": []}"#

    @Test("no-op saves in another zone keep the record in its month; the phone's edit from a conflict copy survives")
    func phoneEditSurvives() throws {
        try withTemporaryDirectory { folder in
            for side in ["phone", "desktop"] { try FileManager.default.createDirectory(atPath: folder + "/" + side, withIntermediateDirectories: false) }
            // The phone files the record in February (its zone).
            var phone = try MountedStore(in: folder + "/phone", timeZone: "Europe/Berlin")
            try Data(Self.record.utf8).write(to: URL(fileURLWithPath: phone.mountPoint + "/records/2024/02/new.json"))
            let phoneName = phone.mountPoint + "/records/2024/02/2024-02-01_002000.json"
            #expect(FileManager.default.fileExists(atPath: phoneName))
            #expect(phone.unmount() == 0)
            try FileManager.default.copyItem(atPath: phone.store, toPath: folder + "/desktop/store")
            phone = try MountedStore(in: folder + "/phone", copyingSample: false, timeZone: "Europe/Berlin")
            let desktop = try MountedStore(in: folder + "/desktop", copyingSample: false, timeZone: "UTC")

            // The desktop shows it in February under its UTC name; saves that change nothing move nothing.
            let desktopName = desktop.mountPoint + "/records/2024/02/2024-01-31_232000.json"
            let shown = try desktop.text(desktopName)
            #expect(shown.contains("\"standup\""))
            let january = desktop.store + "/records/2024/01.automerge"
            let february = desktop.store + "/records/2024/02.automerge"
            let before = (try Fixtures.contents(ofFileAtPath: january), try Fixtures.contents(ofFileAtPath: february))
            let scratch = folder + "/x.json"
            for command in ["sed -i 's/x/x/' '\(desktopName)'", "cp '\(desktopName)' '\(scratch)' && mv '\(scratch)' '\(desktopName)'",
                            "sed -i 's/nothing-matches-this//' '\(desktop.mountPoint)'/records/2024/*/*.json"] {
                let result = try Shell.run(command)
                #expect(result.status == 0, "\(command): \(result.output)")
            }
            let januaryKept = try Fixtures.contents(ofFileAtPath: january) == before.0
            let februaryKept = try Fixtures.contents(ofFileAtPath: february) == before.1
            #expect(januaryKept, "January's document was rewritten")
            #expect(februaryKept, "February's document was rewritten")
            #expect(try desktop.text(desktopName) == shown)

            // The phone edits the comment; its February document arrives as a Dropbox conflict copy.
            let edit = try Shell.run("sed -i 's/\"standup\"/\"standup, phone notes\"/' '\(phoneName)'")
            #expect(edit.status == 0, "\(edit.output)")
            let copy = desktop.store + "/records/2024/02 (Phone's conflicted copy 2024-02-02).automerge"
            try FileManager.default.copyItem(atPath: phone.store + "/records/2024/02.automerge", toPath: copy)
            let merged = eventually(within: 15) {
                !FileManager.default.fileExists(atPath: copy)
                    && ((try? desktop.text(desktopName))?.contains("standup, phone notes") ?? false)
            }
            #expect(merged, "the phone's edit is not shown: \((try? desktop.text(desktopName)) ?? "no file")")
            let status = try desktop.text(desktop.mountPoint + "/.minutafs/status")
            #expect(status.contains("time zone: UTC"))
            #expect(try desktop.text(desktop.mountPoint + "/.minutafs/errors").isEmpty)
            #expect(desktop.unmount() == 0)
            #expect(phone.unmount() == 0)
        }
    }

    @Test("a record the desktop moved to June keeps the comment the phone wrote in May meanwhile")
    func editFollowsMovedRecord() throws {
        try withTemporaryDirectory { folder in
            for side in ["phone", "desktop"] { try FileManager.default.createDirectory(atPath: folder + "/" + side, withIntermediateDirectories: false) }
            let phone = try MountedStore(in: folder + "/phone", timeZone: "Europe/Berlin")
            try FileManager.default.copyItem(atPath: phone.store, toPath: folder + "/desktop/store")
            let desktop = try MountedStore(in: folder + "/desktop", copyingSample: false, timeZone: "UTC")

            // The desktop moves the record to June (start and end change).
            let move = try Shell.run("sed -i -e 's/2024-05-15T06:53:35.681Z/2024-06-02T08:00:00Z/' -e 's/2024-05-15T07:30:32.206Z/2024-06-02T09:00:00Z/' "
                + "'\(desktop.mountPoint)/records/2024/05/2024-05-15_065335.json'")
            #expect(move.status == 0, "\(move.output)")
            let moved = desktop.mountPoint + "/records/2024/06/2024-06-02_080000.json"
            #expect(FileManager.default.fileExists(atPath: moved))
            // The phone (08:53 in Berlin) changes the comment in May; its May document arrives as a conflict copy.
            let edit = try Shell.run("sed -i 's/\"comment\": \"/\"comment\": \"phone: /' '\(phone.mountPoint)/records/2024/05/2024-05-15_085335.json'")
            #expect(edit.status == 0, "\(edit.output)")
            try FileManager.default.copyItem(atPath: phone.store + "/records/2024/05.automerge",
                                             toPath: desktop.store + "/records/2024/05 (Phone's conflicted copy 2024-06-02).automerge")
            let carried = eventually(within: 15) { ((try? desktop.text(moved))?.contains("\"comment\": \"phone: ")) ?? false }
            #expect(carried, "the phone's comment did not follow the record: \((try? desktop.text(moved)) ?? "no file")")
            #expect(try !FileManager.default.contentsOfDirectory(atPath: desktop.mountPoint + "/records/2024/05").contains("2024-05-15_065335.json"))
            #expect(desktop.unmount() == 0)
            #expect(phone.unmount() == 0)
        }
    }
}

import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// SPEC section 9: "without a mount, `report` reads documents merged with their waiting conflict
/// copies, as the mount shows them", and "a record counts in the month it starts, whichever document
/// holds it". The read-only commands (`report`, `log`, `now`) read a document merged in memory with
/// the copies beside it, write nothing, and say how many they merged.
@Suite(.serialized)
struct WaitingCopyReportTests {
    static let may = Month(year: 2024, month: 5)!
    static let mergedLine = "merged 1 waiting conflict copy in memory (not written; run `minutafs merge` or mount the store)"
    static let copyName = "records/2024/05 (Bob's conflicted copy 2024-05-20).automerge"

    /// The sample store at `folder/store`, writable.
    static func copyOfSample(into folder: String, name: String) throws -> String {
        let path = folder + "/" + name
        try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: path)
        try Shell.run("chmod -R u+w '\(path)'")
        return path
    }

    /// Another device's May: a new record (running when `running`) and a comment changed, delivered as
    /// a Dropbox conflict copy beside `store`'s May. Returns the new record's id and the new comment.
    static func deliverConflictCopy(into store: String, folder: String, running: Bool = false) throws -> (id: String, comment: String) {
        let other = try copyOfSample(into: folder, name: "bob")
        let bob = try Store(folder: FilePath(other), timeZone: .utc)
        let end = running ? "" : #", "endTime": "2024-05-20T11:30:00Z""#
        let created = try bob.writeRecordFile(Array(#"{"startTime": "2024-05-20T09:00:00Z"\#(end), "comment": "written on Bob's laptop", "images": []}"#.utf8),
                                              named: "new.json", in: may)
        let file = try #require(try bob.recordFiles(in: may).first { $0.id != created.id })
        var object = try #require(try JSONSerialization.jsonObject(with: Data(file.contents)) as? [String: Any])
        let comment = "changed on Bob's laptop"
        object["comment"] = comment
        _ = try bob.writeRecordFile(Array(try JSONSerialization.data(withJSONObject: object)), named: file.name, in: may)
        try FileManager.default.copyItem(atPath: other + "/records/2024/05.automerge", toPath: store + "/" + copyName)
        return (created.id, comment)
    }

    @Test("report without a mount prints what the mount's reports/ shows: a waiting copy's record and comment, a record another month's document holds")
    func reportAgreesWithMount() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.copyOfSample(into: folder, name: "store")
            let (id, comment) = try Self.deliverConflictCopy(into: store, folder: folder)
            // A Berlin phone files Feb 1 00:20 (Jan 31 23:20 UTC) in February's document.
            let phone = try Store(folder: FilePath(store), timeZone: try #require(StoreTimeZone(identifier: "Europe/Berlin")))
            let filed = try phone.writeRecordFile(Array(#"{"startTime": "2024-02-01T00:20:00+01:00", "endTime": "2024-02-01T01:20:00+01:00", "images": []}"#.utf8),
                                                  named: "new.json", in: try #require(Month(year: 2024, month: 2)))
            let before = try folderSnapshot(store)

            var printed: [String: [UInt8]] = [:]
            for month in ["01", "02", "05"] {
                let result = try MinutafsBinary.run(["report", store, "--month", "2024-\(month)", "--format", "csv", "--timezone", "UTC"])
                #expect(result.status == 0, "\(result.errorText)")
                printed[month] = result.standardOutput
                if month == "05" {
                    #expect(result.errorText.split(separator: "\n").map(String.init) == [Self.mergedLine], "\(result.errorText)")
                }
            }
            #expect(try folderSnapshot(store) == before, "report wrote to the store")
            let may = try PythonScript.csvRows(try #require(printed["05"]))
            #expect(may.contains { $0[8] == id }, "the copy's record is missing")
            #expect(may.contains { $0[6] == comment }, "the copy's comment is missing")
            #expect(try PythonScript.csvRows(try #require(printed["01"])).contains { $0[8] == filed.id && $0[0] == "2024-01-31" })
            #expect(try !PythonScript.csvRows(try #require(printed["02"])).contains { $0[8] == filed.id })

            let mounted = try MountedStore(in: folder, copyingSample: false)
            #expect(eventually(within: 10) { !FileManager.default.fileExists(atPath: store + "/" + Self.copyName) }, "the mount did not merge the copy")
            for month in ["01", "02", "05"] {
                let shown = try Fixtures.contents(ofFileAtPath: mounted.mountPoint + "/reports/2024/\(month).csv")
                #expect(shown == printed[month], "2024-\(month).csv: \(ByteDifference(actual: printed[month] ?? [], expected: shown).map(String.init(describing:)) ?? "")")
            }
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("log and now without a mount read a waiting copy merged in memory, say so, and write nothing")
    func logAndNow() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.copyOfSample(into: folder, name: "store")
            let (id, _) = try Self.deliverConflictCopy(into: store, folder: folder, running: true)
            let before = try folderSnapshot(store)
            let log = try MinutafsBinary.run(["log", store, id])
            #expect(log.status == 0, "\(log.errorText)")
            #expect(log.outputText.contains("created"), "\(log.outputText)")
            #expect(log.errorText.contains(Self.mergedLine), "\(log.errorText)")
            let now = try MinutafsBinary.run(["now", store, "--timezone", "UTC", "--all-months"], environment: ["XDG_CACHE_HOME": folder + "/cache"])
            #expect(now.status == 0, "\(now.errorText)")
            #expect(now.outputText.contains("written on Bob's laptop"), "\(now.outputText)")
            #expect(now.errorText.contains(Self.mergedLine), "\(now.errorText)")
            #expect(try folderSnapshot(store) == before, "a read-only command wrote to the store")
        }
    }
}

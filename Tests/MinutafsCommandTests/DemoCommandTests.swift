import Foundation
import Testing
import TestSupport

/// `minutafs demo DIR` (SPEC §6): a sample store that loads cleanly but for its conflict copy.
struct DemoCommandTests {
    static let arguments = ["--seed", "7", "--now", "2025-06-30T12:00:00Z", "--timezone", "UTC"]

    @Test("the demo store checks clean except the conflict copy, and merge makes it clean")
    func checkAndMerge() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/demo-store"
            let demo = try MinutafsBinary.run(["demo", store] + Self.arguments)
            #expect(demo.status == 0, "\(demo.errorText)")

            let check = try MinutafsBinary.run(["check", store])
            #expect(check.status == 1)
            let problems = check.outputText.split(separator: "\n").dropLast()
            #expect(problems.count == 1, "\(check.outputText)")
            #expect(problems.first?.contains("conflicted copy") == true, "\(check.outputText)")
            #expect(problems.first?.contains("waiting to be merged") == true, "\(check.outputText)")

            let merge = try MinutafsBinary.run(["merge", store])
            #expect(merge.status == 0, "\(merge.errorText)")
            #expect(merge.outputText.contains("merged"))
            let clean = try MinutafsBinary.run(["check", store])
            #expect(clean.status == 0, "\(clean.outputText)")
            #expect(clean.outputText.contains("0 problems"))
        }
    }

    @Test("the demo store holds a year of records, a running timer, text comments and valid images")
    func contents() throws {
        try withTemporaryDirectory { folder in
            let store = folder + "/demo-store"
            #expect(try MinutafsBinary.run(["demo", store] + Self.arguments).status == 0)
            let exported = folder + "/exported"
            #expect(try MinutafsBinary.run(["export", store, exported, "--timezone", "UTC"]).status == 0)
            let records = try LegacyStoreFixture.readRecords(in: exported)
            #expect((300...500).contains(records.count), "\(records.count) records")
            #expect(records.values.filter { $0["endTime"] == nil }.count == 1)
            let months = Set(records.values.compactMap { ($0["_file"] as? String).map { ($0 as NSString).deletingLastPathComponent } })
            #expect(months.count >= 12)
            #expect(try LegacyStoreFixture.readTags(in: exported).count >= 4)
            // Some comments are text objects in the documents.
            let documents = try folderSnapshot(store, suffix: ".automerge").keys.filter { $0.hasPrefix("records/") && !$0.contains(" ") }
            var texts = 0
            for document in documents {
                let typed = try MinutafsBinary.run(["inspect", store + "/" + document])
                texts += typed.outputText.components(separatedBy: "\"_text\"").count - 1
            }
            #expect(texts > 0)
            // The images start as PNG and JPEG files do.
            let images = try folderSnapshot(store).filter { $0.key.hasSuffix(".png") || $0.key.hasSuffix(".jpg") }
            #expect(images.count >= 3)
            for (path, bytes) in images {
                if path.hasSuffix(".png") { #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(path)") }
                if path.hasSuffix(".jpg") { #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]) && bytes.suffix(2) == [0xFF, 0xD9], "\(path)") }
            }
        }
    }

    @Test("the same seed, time and zone give the same store byte for byte")
    func deterministic() throws {
        try withTemporaryDirectory { folder in
            #expect(try MinutafsBinary.run(["demo", folder + "/a"] + Self.arguments).status == 0)
            #expect(try MinutafsBinary.run(["demo", folder + "/b"] + Self.arguments).status == 0)
            let a = try folderSnapshot(folder + "/a")
            #expect(!a.isEmpty)
            #expect(a == (try folderSnapshot(folder + "/b")))
        }
    }

    @Test("demo refuses a folder that is not empty")
    func refusesNonEmpty() throws {
        try withTemporaryDirectory { folder in
            try Data("keep me".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
            try expectOneLineFailure(of: ["demo", folder], naming: folder)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["notes.txt"])
        }
    }
}

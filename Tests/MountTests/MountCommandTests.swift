import Foundation
import MinutaStore
import SystemPackage
import Testing
import TestSupport

/// The real binary mounting the sample store, driven by real programs (SPEC sections 3 to 6).
/// Serialized: each test mounts its own copy, but FUSE tests share the kernel and two cores.
@Suite(.serialized)
struct MountCommandTests {
    @Test("ls, cat, grep -r, jq, stat and extended attributes see the store as JSON files")
    func reading() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let listing = try Shell.run("ls -la '\(mounted.january)'")
            #expect(listing.status == 0 && listing.output.contains("2024-01-03_034234.json"))
            #expect(try Shell.run("ls '\(mounted.january)' | wc -l").output.trimmingCharacters(in: .whitespacesAndNewlines) == "59")
            let file = mounted.january + "/2024-01-03_034234.json"
            #expect(try mounted.text(file).contains("\"comment\": \"Rückmeldung an Jürgen\""))
            #expect(try Shell.run("stat -c %s '\(file)'").output.trimmingCharacters(in: .whitespacesAndNewlines) == String(try mounted.text(file).utf8.count))
            let grep = try Shell.run("grep -rl 'Jürgen' '\(mounted.mountPoint)/records'")
            #expect(grep.output.contains("2024-01-03_034234.json"))
            #expect(try Shell.run("jq -r .id '\(file)'").output == "0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81\n")
            #expect(try Shell.run("python3 -c \"import os; print(os.getxattr('\(file)', 'user.minutafs.id').decode())\"").output == "0BB84374-05B0-4A5F-94F7-B5A6B2AEBF81\n")
            #expect(try Shell.run("jq -s length '\(mounted.mountPoint)'/records/2024/*/*.json").output == "702\n")
            // Directory walkers that trust link counts (fts, Foundation) descend into every folder.
            let walked = try FileManager.default.subpathsOfDirectory(atPath: mounted.mountPoint + "/records").filter { $0.hasSuffix(".json") }
            #expect(walked.count == 702)
            #expect(try Shell.run("jq -r '.tags[].name' '\(mounted.mountPoint)/tags.json'").output.contains("Écriture"))
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/status").contains("store: \(mounted.store)"))
            #expect(try Shell.run("cmp '\(mounted.mountPoint)/records/2024/03/478594E3-17C2-407E-8493-B78CB2137020_0.jpg' '\(mounted.store)/records/2024/03/478594E3-17C2-407E-8493-B78CB2137020_0.jpg'").status == 0)
            #expect(try Shell.run("test ! -e '\(mounted.mountPoint)/records/2024/01.automerge'").status == 0)
            #expect(mounted.unmount() == 0)
        }
    }

    /// Each program edits the comment of its own record through the mount; meanwhile a second copy
    /// of the store changes those records' endTime; a sync tool's conflict copy brings that in. If
    /// any save were a delete plus re-create, the concurrent endTime would be lost.
    @Test("editors and tools save as updates of the same record, so a concurrent edit survives")
    func editorsUpdateInPlace() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let copy = folder + "/copy"
            try FileManager.default.copyItem(atPath: mounted.store, toPath: copy)
            let january = try #require(Month(year: 2024, month: 1))
            let candidates = try Store(folder: FilePath(copy), timeZone: .utc).recordFiles(in: january).filter { file in
                let text = String(decoding: file.contents, as: UTF8.self)
                return !text.contains("\"comment\"") && text.contains("\"endTime\"") && text.contains("\"images\": []")
            }
            let programs: [(String, (String, String) -> String)] = [
                ("sed", { file, _ in "sed -i 's/\"images\": \\[\\]/\"comment\": \"by sed\", \"images\": []/' '\(file)'" }),
                ("python-replace", { file, dir in "python3 - <<'PY'\nimport os, tempfile\nt = open('\(file)').read().replace('\"images\": []', '\"comment\": \"by python-replace\", \"images\": []')\nfd, p = tempfile.mkstemp(dir='\(dir)')\nos.write(fd, t.encode()); os.close(fd)\nos.replace(p, '\(file)')\nPY" }),
                ("python-write", { file, _ in "python3 - <<'PY'\nt = open('\(file)').read().replace('\"images\": []', '\"comment\": \"by python-write\", \"images\": []')\nf = open('\(file)', 'w'); f.write(t); f.close()\nPY" }),
                ("vim", { file, _ in "HOME=/tmp vim -Es -u DEFAULTS -i NONE -c '%s/\"images\": \\[\\]/\"comment\": \"by vim\", \"images\": []/' -c 'wq' '\(file)'" }),
                ("vim-backupcopy", { file, _ in "HOME=/tmp vim -Es -u NONE -i NONE -c 'set backupcopy=yes' -c '%s/\"images\": \\[\\]/\"comment\": \"by vim-backupcopy\", \"images\": []/' -c 'wq' '\(file)'" }),
                ("redirect", { file, _ in "t=$(sed 's/\"images\": \\[\\]/\"comment\": \"by redirect\", \"images\": []/' '\(file)') && printf '%s\\n' \"$t\" > '\(file)'" }),
                ("cp", { file, _ in "sed 's/\"images\": \\[\\]/\"comment\": \"by cp\", \"images\": []/' '\(file)' > '\(folder)/cp.json' && cp '\(folder)/cp.json' '\(file)'" }),
                ("rsync", { file, _ in "sed 's/\"images\": \\[\\]/\"comment\": \"by rsync\", \"images\": []/' '\(file)' > '\(folder)/rs.json' && rsync '\(folder)/rs.json' '\(file)'" }),
                ("mv", { file, _ in "sed 's/\"images\": \\[\\]/\"comment\": \"by mv\", \"images\": []/' '\(file)' > '\(folder)/mv.json' && mv '\(folder)/mv.json' '\(file)'" }),
            ]
            try #require(candidates.count >= programs.count)
            let other = try Store(folder: FilePath(copy), timeZone: .utc)
            for ((name, command), record) in zip(programs, candidates) {
                let file = mounted.january + "/" + record.name
                let result = try Shell.run(command(file, mounted.january))
                #expect(result.status == 0, "\(name): \(result.output)")
                #expect(try mounted.text(file).contains("\"comment\": \"by \(name)\""), "\(name)")
                // The concurrent edit on the other device.
                let edited = String(decoding: record.contents, as: UTF8.self)
                    .replacingOccurrences(of: #""endTime": "[^"]*""#, with: #""endTime": "2024-01-31T23:00:00Z""#, options: .regularExpression)
                _ = try other.writeRecordFile(Array(edited.utf8), named: record.name, in: january)
            }
            // No editor file reached the backing folder.
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: mounted.store + "/records/2024").filter { !$0.hasSuffix(".automerge") && $0.count != 2 }
            #expect(leftovers.isEmpty, "\(leftovers)")
            // The sync tool drops the other device's version as a conflict copy.
            let conflict = mounted.store + "/records/2024/01 (Bob's conflicted copy 2024-01-31).automerge"
            try FileManager.default.copyItem(atPath: copy + "/records/2024/01.automerge", toPath: conflict)
            for ((name, _), record) in zip(programs, candidates) {
                let file = mounted.january + "/" + record.name
                let merged = mounted.withinTwoPasses {
                    let text = (try? mounted.text(file)) ?? ""
                    return text.contains("\"comment\": \"by \(name)\"") && text.contains("\"endTime\": \"2024-01-31T23:00:00Z\"")
                }
                #expect(merged, "\(name): \((try? mounted.text(file)) ?? "")")
            }
            #expect(!FileManager.default.fileExists(atPath: conflict))
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("broken JSON: close fails with EINVAL, the record is unchanged, the reason and the bytes are kept")
    func brokenJSON() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let file = mounted.january + "/2024-01-03_034234.json"
            let before = try mounted.text(file)
            let documentBefore = try Fixtures.contents(ofFileAtPath: mounted.store + "/records/2024/01.automerge")
            let result = try Shell.run("""
                python3 - <<'PY'
                import errno
                f = open('\(file)', 'w')
                f.write('{ "startTime": broken')
                try:
                    f.close()
                    print("closed")
                except OSError as e:
                    print("errno", e.errno)
                PY
                """)
            #expect(result.output.contains("errno \(EINVAL)"), "\(result.output)")
            #expect(try mounted.text(file) == before)
            #expect(try Fixtures.contents(ofFileAtPath: mounted.store + "/records/2024/01.automerge") == documentBefore)
            let errors = try mounted.text(mounted.mountPoint + "/.minutafs/errors")
            #expect(errors.contains("records/2024/01/2024-01-03_034234.json: line 1, column 16: expected a value"))
            let rejected = try FileManager.default.contentsOfDirectory(atPath: mounted.mountPoint + "/.minutafs/rejected")
            #expect(rejected.count == 1)
            #expect(try mounted.text(mounted.mountPoint + "/.minutafs/rejected/" + (rejected.first ?? "")) == #"{ "startTime": broken"#)
            #expect(mounted.unmount() == 0)
        }
    }

    @Test("new records, rm, mkdir and rmdir work through the mount")
    func namespace() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let new = #"{"startTime": "2025-03-02T10:00:00Z", "endTime": "2025-03-02T11:00:00Z", "comment": "created"}"#
            #expect(try Shell.run("mkdir -p '\(mounted.mountPoint)/records/2025/03' && printf '%s' '\(new)' > '\(mounted.mountPoint)/records/2025/03/new.json'").status == 0)
            #expect(eventually(within: 10) { FileManager.default.fileExists(atPath: mounted.mountPoint + "/records/2025/03/2025-03-02_100000.json") })
            #expect(FileManager.default.fileExists(atPath: mounted.store + "/records/2025/03.automerge"))
            #expect(try Shell.run("rm '\(mounted.january)/2024-01-03_034234.json'").status == 0)
            #expect(!FileManager.default.fileExists(atPath: mounted.january + "/2024-01-03_034234.json"))
            #expect(try Shell.run("mkdir '\(mounted.mountPoint)/records/2026' && mkdir '\(mounted.mountPoint)/records/2026/07' && rmdir '\(mounted.mountPoint)/records/2026/07'").status == 0)
            let notEmpty = try Shell.run("rmdir '\(mounted.january)'")
            #expect(notEmpty.status != 0 && notEmpty.output.contains("not empty"))
            #expect(mounted.unmount() == 0)
            let fresh = try Store(folder: FilePath(mounted.store), timeZone: .utc)
            let january = try #require(Month(year: 2024, month: 1))
            let march = try #require(Month(year: 2025, month: 3))
            #expect(try fresh.recordFile(named: "2024-01-03_034234.json", in: january) == nil)
            #expect(try fresh.recordFiles(in: march).count == 1)
        }
    }

    @Test("unmounting while a file is still open loses nothing that was flushed, and the mount exits 0")
    func unmountWhileOpen() throws {
        try withTemporaryDirectory { folder in
            let mounted = try MountedStore(in: folder)
            let file = mounted.january + "/2024-01-03_034234.json"
            let edited = try mounted.text(file).replacingOccurrences(of: "an Jürgen", with: "an Ana")
            try Data(edited.utf8).write(to: URL(fileURLWithPath: folder + "/edited.json"))
            // A writer that saves (fsync) and then keeps the file open while the mount goes away.
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            writer.arguments = ["-c", "import os, sys\nf = open('\(file)', 'w')\nf.write(open('\(folder)/edited.json').read())\nf.flush(); os.fsync(f.fileno())\nprint('saved', flush=True)\nsys.stdin.readline()\ntry:\n  f.close()\nexcept OSError:\n  pass\n"]
            // It closes the file when told to (a line on its input), after the unmount: no sleep decides the order.
            let pipe = Pipe()
            let input = Pipe()
            writer.standardOutput = pipe
            writer.standardInput = input
            try writer.run()
            _ = pipe.fileHandleForReading.availableData
            _ = try Shell.run("fusermount3 -u -z '\(mounted.mountPoint)'")
            try input.fileHandleForWriting.write(contentsOf: Data("close\n".utf8))
            try input.fileHandleForWriting.close()
            writer.waitUntilExit()
            #expect(writer.terminationStatus == 0)
            #expect(mounted.unmount() == 0)
            let fresh = try Store(folder: FilePath(mounted.store), timeZone: .utc)
            let january = try #require(Month(year: 2024, month: 1))
            let record = try #require(try fresh.recordFile(named: "2024-01-03_034234.json", in: january))
            let text = String(decoding: record.contents, as: UTF8.self)
            #expect(text.contains("Rückmeldung an Ana"))
        }
    }

    @Test("a legacy store, a missing store and a busy mount point each give one clear line and exit 1")
    func refusals() throws {
        try withTemporaryDirectory { folder in
            try FileManager.default.createDirectory(atPath: folder + "/legacy/records", withIntermediateDirectories: true)
            try Data(#"{"tags": []}"#.utf8).write(to: URL(fileURLWithPath: folder + "/legacy/tags.json"))
            try FileManager.default.createDirectory(atPath: folder + "/mnt", withIntermediateDirectories: true)
            let legacy = try MinutafsBinary.run(["mount", folder + "/legacy", folder + "/mnt"])
            #expect(legacy.status == 1 && legacy.errorText.contains("minutafs migrate"))
            let missing = try MinutafsBinary.run(["mount", folder + "/nothing", folder + "/mnt"])
            #expect(missing.status == 1 && missing.errorText.split(separator: "\n").count == 1)
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/mnt/file"))
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: folder + "/store")
            let busy = try MinutafsBinary.run(["mount", folder + "/store", folder + "/mnt"])
            #expect(busy.status == 1 && busy.errorText.contains("not empty"))
        }
    }
}

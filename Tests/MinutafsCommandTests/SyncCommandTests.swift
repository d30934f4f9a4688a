import Foundation
import Testing
import TestSupport

/// `minutafs sync STORE REMOTE`: two stores brought together through the sync protocol.
struct SyncCommandTests {
    /// A demo store at `folder/a` and an empty one (a `records` folder) at `folder/b`.
    static func makeStores(in folder: String, second: String = "b") throws -> (String, String) {
        let a = folder + "/a", b = folder + "/" + second
        let demo = try MinutafsBinary.run(["demo", a])
        try #require(demo.status == 0, "\(demo.errorText)")
        try FileManager.default.createDirectory(atPath: b + "/records", withIntermediateDirectories: true)
        return (a, b)
    }

    /// `records/…` and `tags.automerge` documents of a store (conflict copies left out).
    static func documents(_ store: String) throws -> [String] {
        var found: [String] = []
        if FileManager.default.fileExists(atPath: store + "/tags.automerge") { found.append("tags.automerge") }
        let records = store + "/records"
        for year in try FileManager.default.contentsOfDirectory(atPath: records) where year.count == 4 {
            for month in try FileManager.default.contentsOfDirectory(atPath: records + "/" + year)
            where month.count == "MM.automerge".count && month.hasSuffix(".automerge") {
                found.append("records/\(year)/\(month)")
            }
        }
        return found.sorted()
    }

    static func heads(_ file: String) throws -> String {
        let result = try MinutafsBinary.run(["inspect", "--heads", file])
        try #require(result.status == 0, "\(file): \(result.errorText)")
        return result.outputText
    }

    /// Every document of either store exists in both, with the same heads.
    static func expectSame(_ a: String, _ b: String) throws {
        let names = try documents(a)
        #expect(names == (try documents(b)))
        for name in names {
            #expect(try heads(a + "/" + name) == (try heads(b + "/" + name)), "\(name)")
        }
    }

    static func sync(_ arguments: [String], state: String, environment: [String: String] = [:]) throws -> CommandResult {
        try MinutafsBinary.run(["sync"] + arguments, environment: environment.merging(["XDG_STATE_HOME": state]) { $1 })
    }

    /// The number before `label` in the report (`16 round trips`).
    static func figure(_ label: String, in text: String) -> Int? {
        guard let range = text.range(of: " " + label) else { return nil }
        return Int(text[..<range.lowerBound].split(whereSeparator: { !$0.isNumber }).last ?? "")
    }

    @Test("a sync copies every document and image to an empty store, and a second sync is one round trip per document")
    func copiesThenOneRoundTripEach() throws {
        try withTemporaryDirectory { folder in
            let (a, b) = try Self.makeStores(in: folder)
            let first = try Self.sync([a, b], state: folder + "/state")
            try #require(first.status == 0, "\(first.errorText)")
            try Self.expectSame(a, b)
            let images = try FileManager.default.subpathsOfDirectory(atPath: a + "/records").filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") }
            #expect(!images.isEmpty)
            for image in images {
                #expect(FileManager.default.contents(atPath: b + "/records/" + image) == FileManager.default.contents(atPath: a + "/records/" + image))
            }
            let documents = try Self.documents(a).count
            let second = try Self.sync([a, b], state: folder + "/state")
            try #require(second.status == 0, "\(second.errorText)")
            // The hello, one per document, the done.
            #expect(Self.figure("round trips", in: second.outputText) == documents + 2, "\(second.outputText)")
            #expect(second.outputText.contains("changed here: 0; changed there: 0"), "\(second.outputText)")
            // Nothing changed on this side since the first sync (which saved nothing here): no document is loaded.
            #expect(second.outputText.contains("\(documents) documents unchanged here since the last sync, not loaded"), "\(second.outputText)")
            // The third time the serving side answers from what it kept too; the stores still agree.
            let third = try Self.sync([a, b], state: folder + "/state")
            try #require(third.status == 0, "\(third.errorText)")
            #expect(Self.figure("round trips", in: third.outputText) == documents + 2, "\(third.outputText)")
            #expect(third.outputText.contains("changed here: 0; changed there: 0"), "\(third.outputText)")
            try Self.expectSame(a, b)
            // The states are in the state folder, none in either store.
            #expect(try FileManager.default.subpathsOfDirectory(atPath: folder + "/state").contains { $0.hasSuffix(".state") })
            #expect(try !FileManager.default.subpathsOfDirectory(atPath: b).contains { $0.hasSuffix(".state") })
        }
    }

    @Test("edits on both sides meet, and a sync after one edit sends a few hundred bytes for it")
    func editsMeet() throws {
        try withTemporaryDirectory { folder in
            let (a, b) = try Self.makeStores(in: folder)
            let state = folder + "/state"
            try #require(try Self.sync([a, b], state: state).status == 0)
            let unchanged = try Self.sync([a, b], state: state)
            let baseline = try #require(Self.figure("bytes sent", in: unchanged.outputText))
            #expect(try MinutafsBinary.run(["start", "--keep", "--comment", "here", "--at", "2026-03-05T09:00", a]).status == 0)
            #expect(try MinutafsBinary.run(["start", "--keep", "--comment", "there", "--at", "2026-04-05T09:00", b]).status == 0)
            let dry = try Self.sync(["--dry-run", a, b], state: state)
            #expect(dry.status == 0 && dry.outputText.contains("would change here: 1"), "\(dry.outputText)")
            #expect(try Self.heads(a + "/records/2026/04.automerge") != (try Self.heads(b + "/records/2026/04.automerge")))
            let result = try Self.sync([a, b], state: state)
            try #require(result.status == 0, "\(result.errorText)")
            #expect(result.outputText.contains("changed here: 1 (records/2026/04.automerge)"), "\(result.outputText)")
            #expect(result.outputText.contains("changed there: 1 (records/2026/03.automerge)"), "\(result.outputText)")
            try Self.expectSame(a, b)
            let sent = try #require(Self.figure("bytes sent", in: result.outputText))
            #expect(sent - baseline < 1000, "\(sent) bytes against \(baseline) for no change")
        }
    }

    @Test("an image both stores have with different bytes is never overwritten: each keeps the other's as a conflict copy")
    func imageConflict() throws {
        try withTemporaryDirectory { folder in
            let (a, b) = try Self.makeStores(in: folder)
            let state = folder + "/state"
            try #require(try Self.sync([a, b], state: state).status == 0)
            let image = try #require(try FileManager.default.subpathsOfDirectory(atPath: a + "/records").first { $0.hasSuffix(".jpg") })
            let mine = Data("mine".utf8), theirs = Data("theirs".utf8)
            try mine.write(to: URL(fileURLWithPath: a + "/records/" + image))
            try theirs.write(to: URL(fileURLWithPath: b + "/records/" + image))
            let result = try Self.sync([a, b], state: state)
            try #require(result.status == 0, "\(result.errorText)")
            #expect(FileManager.default.contents(atPath: a + "/records/" + image) == mine)
            #expect(FileManager.default.contents(atPath: b + "/records/" + image) == theirs)
            #expect(result.outputText.components(separatedBy: "image conflict:").count == 3, "\(result.outputText)")
            let folderA = (a + "/records/" + image as NSString).deletingLastPathComponent
            let copies = try FileManager.default.contentsOfDirectory(atPath: folderA).filter { $0.contains("conflicted copy") }
            #expect(copies.count == 1)
            #expect(copies.first.flatMap { FileManager.default.contents(atPath: folderA + "/" + $0) } == theirs)
        }
    }

    @Test("a connection cut anywhere (through ssh, a path with a space and a quote) leaves both stores loadable, and the next sync completes",
          arguments: [("in", 3), ("in", 300), ("in", 9000), ("in", 60000), ("in", 120000), ("out", 3), ("out", 500), ("out", 2500)])
    func cutConnection(direction: String, bytes: Int) throws {
        try withTemporaryDirectory { folder in
            let (a, b) = try Self.makeStores(in: folder, second: "b store's")
            let state = folder + "/state"
            #expect(try MinutafsBinary.run(["start", "--keep", "--comment", "there", "--at", "2026-04-05T09:00", b]).status == 0)
            // A stand-in for ssh (`-e none -- DESTINATION COMMAND` as minutafs calls it): runs the
            // remote command and relays both ways; after CUT_BYTES bytes one way (in: to the server,
            // out: from it) it cuts the connection as a network would: both ways at once.
            let ssh = folder + "/fake-ssh"
            try Data("""
                #!/usr/bin/env python3
                import os, select, subprocess, sys
                if sys.argv[1:5] != ["-e", "none", "--", "host"]:
                    sys.exit("unexpected ssh arguments: %r" % sys.argv)
                server = subprocess.Popen(["sh", "-c", sys.argv[5]], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                direction = os.environ.get("CUT_DIRECTION", "none")
                left = int(os.environ.get("CUT_BYTES", "0"))
                ends = {0: server.stdin.fileno(), server.stdout.fileno(): 1}
                while ends:
                    ready, _, _ = select.select(list(ends), [], [])
                    for source in ready:
                        data = os.read(source, 65536)
                        if not data:
                            os.close(ends.pop(source))
                            continue
                        way = "in" if source == 0 else "out"
                        if way == direction:
                            data = data[:left]
                            left -= len(data)
                        os.write(ends[source], data)
                        if way == direction and left <= 0:
                            for end in list(ends.values()):
                                os.close(end)
                            server.wait()
                            sys.exit(255)
                sys.exit(server.wait())

                """.utf8).write(to: URL(fileURLWithPath: ssh))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: ssh)
            let binary = try MinutafsBinary.path()
            let cut = try Self.sync(["--remote-minutafs", binary, a, "host:" + b], state: state,
                                    environment: ["MINUTAFS_SSH": ssh, "CUT_DIRECTION": direction, "CUT_BYTES": String(bytes)])
            #expect(cut.status != 0, "a cut connection is a failure: \(cut.outputText)")
            for store in [a, b] {
                for name in try Self.documents(store) { _ = try Self.heads(store + "/" + name) }
                let temporary = try FileManager.default.subpathsOfDirectory(atPath: store).filter { $0.contains(".tmp") || $0.contains("~") }
                #expect(temporary.isEmpty, "\(temporary)")
            }
            let again = try Self.sync(["--remote-minutafs", binary, a, "host:" + b], state: state,
                                      environment: ["MINUTAFS_SSH": ssh, "CUT_DIRECTION": "none"])
            try #require(again.status == 0, "\(again.errorText)")
            try Self.expectSame(a, b)
        }
    }

    @Test("conflict copies waiting in either store are merged into their documents first (serving side included), so the other side receives them", arguments: [false, true])
    func waitingCopiesSyncedFirst(onServingSide: Bool) throws {
        try withTemporaryDirectory { folder in
            let (a, b) = try Self.makeStores(in: folder)
            let state = folder + "/state"
            try #require(try Self.sync([a, b], state: state).status == 0)
            // A phone's April, delivered by a sync tool as a conflict copy into one of the stores.
            let phone = folder + "/phone"
            try FileManager.default.copyItem(atPath: a, toPath: phone)
            #expect(try MinutafsBinary.run(["start", "--keep", "--comment", "from the phone", "--at", "2026-04-07T09:00", phone]).status == 0)
            let holder = onServingSide ? b : a, other = onServingSide ? a : b
            let copy = holder + "/records/2026/04 (Phone's conflicted copy 2026-04-07).automerge"
            try FileManager.default.copyItem(atPath: phone + "/records/2026/04.automerge", toPath: copy)
            let dry = try Self.sync(["--dry-run", a, b], state: state)
            #expect(dry.status == 0 && FileManager.default.fileExists(atPath: copy), "a dry run merges nothing: \(dry.errorText)")
            let result = try Self.sync([a, b], state: state)
            try #require(result.status == 0, "\(result.errorText)")
            // Said either way: the serving side says it on standard error, which the syncing side shows.
            let merged = "before syncing, merged records/2026/04 (Phone's conflicted copy 2026-04-07).automerge"
            if onServingSide {
                #expect(result.errorText.contains("\(b): " + merged), "\(result.errorText)")
            } else {
                #expect(result.outputText.contains(merged), "\(result.outputText)")
            }
            #expect(!FileManager.default.fileExists(atPath: copy))
            #expect(try Self.heads(other + "/records/2026/04.automerge") == (try Self.heads(phone + "/records/2026/04.automerge")))
            try Self.expectSame(a, b)
        }
    }

    @Test("a document another program replaced since the last sync (written over in place) is loaded and synced, on either side, not answered from what was kept", arguments: [false, true])
    func replacedDocumentSynced(onServingSide: Bool) throws {
        try withTemporaryDirectory { folder in
            let (a, b) = try Self.makeStores(in: folder)
            let state = folder + "/state"
            for _ in 0..<3 { try #require(try Self.sync([a, b], state: state).status == 0) }
            let phone = folder + "/phone"
            try FileManager.default.copyItem(atPath: a, toPath: phone)
            #expect(try MinutafsBinary.run(["start", "--keep", "--comment", "from the phone", "--at", "2026-04-07T09:00", phone]).status == 0)
            // Written over in place (the same inode): its size and time change.
            let target = (onServingSide ? b : a) + "/records/2026/04.automerge"
            let bytes = try Data(contentsOf: URL(fileURLWithPath: phone + "/records/2026/04.automerge"))
            let handle = try #require(FileHandle(forWritingAtPath: target))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: bytes)
            try handle.close()
            let result = try Self.sync([a, b], state: state)
            try #require(result.status == 0, "\(result.errorText)")
            let other = (onServingSide ? a : b) + "/records/2026/04.automerge"
            #expect(try Self.heads(other) == (try Self.heads(phone + "/records/2026/04.automerge")), "\(result.outputText)")
            try Self.expectSame(a, b)
        }
    }

    @Test("a store held by another minutafs is refused, naming the holder, and nothing is written")
    func lockedStoreRefused() throws {
        try withTemporaryDirectory { folder in
            let (a, b) = try Self.makeStores(in: folder)
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
            holder.arguments = [b, "sleep", "30"]
            try holder.run()
            defer { holder.terminate(); holder.waitUntilExit() }
            try #require(eventually(within: 10) { (try? String(contentsOfFile: "/proc/locks", encoding: .utf8))?.contains(String(holder.processIdentifier)) == true })
            let result = try Self.sync([a, b], state: folder + "/state")
            #expect(result.status == 1)
            #expect(result.errorText.contains("in use"), "\(result.errorText)")
            #expect(try Self.documents(b).isEmpty)
        }
    }

    @Test("REMOTE - speaks the frames on standard input and output, with the report on standard error")
    func standardStreams() throws {
        try withTemporaryDirectory { folder in
            let (a, b) = try Self.makeStores(in: folder)
            let binary = try MinutafsBinary.path()
            // Two fifos join `minutafs sync A -` to `minutafs sync --serve B` (each opens its
            // writing end first, so neither waits for the other).
            let script = folder + "/pair.sh"
            try Data("""
                #!/bin/sh
                set -u
                mkfifo "$1/to-server" "$1/to-client" || exit 90
                "$2" sync --serve "$4" < "$1/to-server" > "$1/to-client" &
                server=$!
                "$2" sync "$3" - > "$1/to-server" < "$1/to-client" 2> "$1/report"
                client=$?
                wait "$server"
                echo "$client $?"

                """.utf8).write(to: URL(fileURLWithPath: script))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [script, folder, binary, a, b]
            process.environment = ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": folder + "/state"]) { $1 }
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let statuses = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(statuses == "0 0\n", "client and server exit statuses: \(statuses)")
            let report = try String(contentsOfFile: folder + "/report", encoding: .utf8)
            #expect(report.contains("round trips"), "\(report)")
            try Self.expectSame(a, b)
        }
    }
}

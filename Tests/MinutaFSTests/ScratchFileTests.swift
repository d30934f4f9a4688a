import Foundation
import TestSupport
import MinutaFS
import Testing

/// Files whose names the tree does not accept live in the mount's memory (SPEC section 4).
@Suite("Scratch files")
struct ScratchFileTests {
    static let folder = "/records/2024/01"

    @Test("a swap file is listed with sane attributes, reads back, and never reaches the tree")
    func swapFileStaysInTheMount() throws {
        try MountedTree.with { mounted in
            let swap = mounted.path(Self.folder + "/.2024-01-15_093000.json.swp")
            let created = try mounted.run("sh", ["-c", "printf 'swap contents' > \"$1\" && chmod 600 \"$1\"", "sh", swap])
            #expect(created.status == 0, "\(created)")
            let listing = try mounted.run("ls", ["-la", mounted.path(Self.folder)])
            let line = try #require(listing.outputText.split(separator: "\n").first { $0.hasSuffix(".2024-01-15_093000.json.swp") })
            #expect(line.hasPrefix("-rw-------"), "\(line)")
            #expect(line.split(separator: " ", omittingEmptySubsequences: true)[4] == "13")
            #expect(try mounted.run("cat", [swap]).outputText == "swap contents")

            #expect(try mounted.run("rm", [swap]).status == 0)
            #expect(try mounted.run("ls", ["-A", mounted.path(Self.folder)]).outputText.contains(".swp") == false)
            #expect(mounted.tree.calls.isEmpty, "\(mounted.tree.calls)")
        }
    }

    @Test("scratch names the tree refuses", arguments: [
        "4913", "2024-01-15_093000.json~", "#2024-01-15_093000.json#", "sedAbC123", "tmpk3j2x9q_",
        ".2024-01-15_093000.json.Xy12Ab", ".goutputstream-ABC123", ".2024-01-15_093000.json.swx",
    ])
    func scratchNames(name: String) throws {
        try MountedTree.with { mounted in
            let path = mounted.path(Self.folder + "/" + name)
            let result = try mounted.run("sh", ["-c", "printf 'x' > \"$1\" && cat \"$1\" && rm \"$1\"", "sh", path])
            #expect(result.status == 0, "\(result)")
            #expect(result.outputText == "x")
            #expect(mounted.tree.calls.isEmpty, "\(mounted.tree.calls)")
        }
    }

    @Test("a folder holding a scratch file is not empty")
    func scratchKeepsFolderBusy() throws {
        try MountedTree.with { mounted in
            #expect(try mounted.run("mkdir", [mounted.path("/records/2025")]).status == 0)
            #expect(try mounted.run("touch", [mounted.path("/records/2025/.notes.swp")]).status == 0)
            let refused = try mounted.run("rmdir", [mounted.path("/records/2025")])
            #expect(refused.status != 0)
            #expect(refused.errorText.contains("not empty"), "\(refused)")
            #expect(try mounted.run("rm", [mounted.path("/records/2025/.notes.swp")]).status == 0)
            #expect(try mounted.run("rmdir", [mounted.path("/records/2025")]).status == 0)
            #expect(mounted.tree.calls == [.makeDirectory("/records/2025"), .removeDirectory("/records/2025")])
        }
    }

    @Test("renaming a record onto a scratch name copies it; the tree keeps its file, hidden for the removal delay")
    func renameOntoScratchKeepsTreeFile() throws {
        try MountedTree.with(options: MountOptions(handlesSignals: false, removalDelay: 0.5)) { mounted throws in
            let record = mounted.path(InMemoryTree.recordPath)
            let backup = record + "~"
            #expect(try mounted.run("mv", [record, backup]).status == 0)
            #expect(try mounted.run("cat", [backup]).outputText == InMemoryTree.record)
            #expect(!FileManager.default.fileExists(atPath: record), "a new version may be created with O_EXCL")
            // Shown again once the delay is over (the kernel hears of it through a queued notice).
            _ = eventually(within: 10) { FileManager.default.fileExists(atPath: record) }
            #expect(try mounted.run("cat", [record]).outputText == InMemoryTree.record)
            #expect(mounted.tree.calls.isEmpty, "\(mounted.tree.calls)")
            #expect(mounted.tree.text(at: InMemoryTree.recordPath) == InMemoryTree.record)
        }
    }

    @Test("a held name: renamed over a record it is one save; left alone it reaches the tree once, after the delay")
    func settling() throws {
        try MountedTree.with(options: MountOptions(handlesSignals: false, settleDelay: 0.5)) { mounted throws in
            let record = mounted.path(InMemoryTree.recordPath)
            let newVersion = InMemoryTree.record.replacingOccurrences(of: "planning the sprint", with: "planning the next sprint")
            let save = try mounted.run("sh", ["-c", "cat > \"$0.new.txt\" && mv \"$0.new.txt\" \"$0\"", record], input: Array(newVersion.utf8))
            #expect(save.status == 0, "\(save)")
            #expect(mounted.tree.calls == [.write(InMemoryTree.recordPath, Array(newVersion.utf8))], "\(mounted.tree.calls)")

            let notes = mounted.path("/records/2024/01/notes.txt")
            #expect(try mounted.run("sh", ["-c", "printf 'one' > \"$0\" && printf ' two' >> \"$0\"", notes]).status == 0)
            #expect(try mounted.run("cat", [notes]).outputText == "one two")
            #expect(mounted.tree.calls.count == 1, "held while written: \(mounted.tree.calls)")
            _ = eventually(within: 10) { mounted.tree.calls.count >= 2 }
            #expect(mounted.tree.calls.dropFirst() == [.write("/records/2024/01/notes.txt", Array("one two".utf8))], "\(mounted.tree.calls)")
            #expect(mounted.tree.text(at: "/records/2024/01/notes.txt") == "one two")
            #expect(try mounted.run("cat", [notes]).outputText == "one two")
        }
    }

    @Test("cp --backup=numbered: the old version stays in memory as the backup, the new one is one save")
    func copyWithNumberedBackup() throws {
        try MountedTree.with { mounted throws in
            let record = mounted.path(InMemoryTree.recordPath)
            let source = NSTemporaryDirectory() + "minutafs-backup-\(UUID().uuidString).json"
            defer { try? FileManager.default.removeItem(atPath: source) }
            let newVersion = InMemoryTree.record.replacingOccurrences(of: "\"comment\": \"", with: "\"comment\": \"new ")
            #expect(newVersion != InMemoryTree.record)
            try Data(newVersion.utf8).write(to: URL(fileURLWithPath: source))
            let copy = try mounted.run("cp", ["--backup=numbered", source, record])
            #expect(copy.status == 0, "\(copy)")
            #expect(try mounted.run("cat", [record + ".~1~"]).outputText == InMemoryTree.record)
            #expect(mounted.tree.text(at: InMemoryTree.recordPath) == newVersion)
            #expect(mounted.tree.calls == [.write(InMemoryTree.recordPath, Array(newVersion.utf8))], "\(mounted.tree.calls)")
        }
    }

    @Test("renameat2 RENAME_NOREPLACE refuses an existing target; RENAME_EXCHANGE swaps scratch files only")
    func renameFlags() throws {
        try MountedTree.with { mounted in
            let script = """
                import ctypes, os, sys
                libc = ctypes.CDLL(None, use_errno=True)
                AT_FDCWD = -100
                def rename(source, target, flags):
                    if libc.renameat2(AT_FDCWD, source.encode(), AT_FDCWD, target.encode(), flags) == 0:
                        return 0
                    return ctypes.get_errno()
                folder = sys.argv[1]
                record = folder + "/2024-01-15_093000.json"
                image = folder + "/5F1C4A2E-0B6D-4C8E-9A3F-2D7B1E6C8A90_0.jpg"
                one, two = folder + "/.one.swp", folder + "/.two.swp"
                open(one, "w").write("one")
                open(two, "w").write("two")
                print(rename(one, two, 1))          # RENAME_NOREPLACE onto an existing file: EEXIST
                print(rename(record, image, 1))     # the same between files of the tree
                print(rename(one, two, 2))          # RENAME_EXCHANGE of scratch files: done
                print(open(one).read(), open(two).read())
                print(rename(record, one, 2))       # RENAME_EXCHANGE with a file of the tree: EINVAL
                print(rename(one, folder + "/.three.swp", 1))  # RENAME_NOREPLACE onto a free name: done
                os.unlink(folder + "/.three.swp")
                os.unlink(two)
                """
            let result = try mounted.run("python3", ["-c", script, mounted.path(Self.folder)])
            #expect(result.status == 0, "\(result)")
            #expect(result.outputText == "\(EEXIST)\n\(EEXIST)\n0\ntwo one\n\(EINVAL)\n0\n")
            #expect(mounted.tree.calls.isEmpty, "\(mounted.tree.calls)")
        }
    }

    @Test("several programs at once: readers, scratch writers and listings do not disturb each other")
    func concurrentPrograms() throws {
        try MountedTree.with { mounted in
            let script = """
                cd "$1"
                worker() {
                    for i in $(seq 40); do
                        cat 2024-01-15_093000.json > /dev/null || exit 1
                        printf "worker $2 pass $i" > ".scratch-$2.swp" || exit 2
                        [ "$(cat ".scratch-$2.swp")" = "worker $2 pass $i" ] || exit 3
                        ls -a > /dev/null || exit 4
                        mv ".scratch-$2.swp" ".scratch-$2.swx" || exit 5
                        rm ".scratch-$2.swx" || exit 6
                    done
                }
                for n in 1 2 3 4 5 6; do worker "$1" "$n" & done
                status=0
                for job in $(jobs -p); do wait "$job" || status=$?; done
                exit $status
                """
            let result = try mounted.run("bash", ["-c", script, "bash", mounted.path(Self.folder)])
            #expect(result.status == 0, "\(result)")
            #expect(mounted.tree.calls.isEmpty, "\(mounted.tree.calls)")
            #expect(try mounted.run("ls", ["-A", mounted.path(Self.folder)]).outputText.contains("scratch") == false)
        }
    }
}

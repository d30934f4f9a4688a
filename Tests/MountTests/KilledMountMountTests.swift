import Foundation
import Glibc
import Testing
import TestSupport

/// A mount killed with SIGKILL (the OOM killer, a crash) while programs save records ends at once, like
/// any process: its threads never wait in the kernel for an answer its own dead threads would have sent.
/// A thread of a killed mount that waited there (a cache notice waiting for a folder's lock that a
/// `rename` held while it waited for the dead mount's answer) kept the process a zombie holding
/// `/dev/fuse` and the store's lock: the saving programs hung, and no new mount could start until the
/// FUSE connection was aborted by hand, in 2 of 30 to 5 of 40 kills.
///
/// Four processes save records of one month, two by rename and two in place, and a fifth delivers
/// conflict copies of that month as a sync tool does (each merge drops the kernel's caches of the
/// month's folder and records), while the mount is killed again and again (20 kills, 40 with
/// `SOAK=1`); after each kill the mount's process must be gone within a deadline, and a new mount of
/// the store must start. (Before, kill 3 of the first run left a zombie in `fuse_reverse_inval_entry`.)
@Suite(.serialized)
struct KilledMountMountTests {
    static let kills = ProcessInfo.processInfo.environment["SOAK"] == "1" ? 40 : 20

    /// The savers: each loops until the stop file appears (or 20 minutes pass), saving its record by
    /// rename or in place and appending a byte to the progress file per save that returned 0. A save
    /// that fails (the mount is dead: ENOTCONN; the record is between two saves) is tried again.
    static let script = #"""
        import json, multiprocessing, os, sys, tempfile, time

        folder, progress, stop, store = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]

        def saver(number, by_rename):
            deadline, index = time.time() + 1200, 0
            while not os.path.exists(stop) and time.time() < deadline:
                index += 1
                try:
                    names = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
                    path = os.path.join(folder, names[number % len(names)])
                    with open(path) as f:
                        record = json.load(f)
                    record["comment"] = "saver %d save %d " % (number, index) + "x" * (index % 50)
                    if by_rename:
                        fd, temporary = tempfile.mkstemp(dir=folder)
                        with os.fdopen(fd, "w") as out:
                            json.dump(record, out, indent=2)
                        os.replace(temporary, path)
                    else:
                        with open(path, "w") as out:
                            json.dump(record, out, indent=index % 3)
                except (OSError, ValueError, IndexError):
                    time.sleep(0.01)
                    continue
                done = os.open(progress, os.O_WRONLY | os.O_APPEND)
                os.write(done, b".")
                os.close(done)

        def sync_tool():
            # Delivers a conflict copy of the month again and again, as a sync tool does: the mount merges
            # it and drops the kernel's caches of the month's folder and records while they are saved.
            primary = os.path.join(store, "records", "2024", "01.automerge")
            copy = os.path.join(store, "records", "2024", "01 (conflicted copy 2024-01-15).automerge")
            deadline = time.time() + 1200
            while not os.path.exists(stop) and time.time() < deadline:
                time.sleep(0.02)
                if os.path.exists(copy):
                    continue
                try:
                    with open(primary, "rb") as f:
                        data = f.read()
                    fd, temporary = tempfile.mkstemp(dir=os.path.dirname(primary), prefix=".delivery")
                    with os.fdopen(fd, "wb") as out:
                        out.write(data)
                    os.replace(temporary, copy)
                except OSError:
                    continue

        if __name__ == "__main__":
            processes = [multiprocessing.Process(target=saver, args=(n, n % 2 == 0)) for n in range(4)]
            processes.append(multiprocessing.Process(target=sync_tool))
            for process in processes: process.start()
            for process in processes: process.join()
        """#

    /// Whether process `pid` has ended entirely: gone, or a zombie with no thread left (the test's
    /// own child, not reaped yet). A killed process with a thread still in the kernel shows its other
    /// threads in `/proc/PID/task`.
    static func hasEnded(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return true }
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return status.contains("State:\tZ") && tasks.count <= 1
    }

    /// The states of the threads of `pid` (`D` for one waiting uninterruptibly in the kernel).
    static func threadStates(_ pid: Int32) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { task in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { return nil }
            return status.split(separator: "\n").first { $0.hasPrefix("State:") }.map { "\(task) \($0.dropFirst(7))" }
        }
    }

    /// The FUSE connection folder of the mount at `mountPoint`, from its device number in mountinfo.
    static func connection(of mountPoint: String) -> String? {
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return nil }
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[4] == mountPoint else { continue }
            let numbers = fields[2].split(separator: ":").compactMap { UInt64($0) }
            guard numbers.count == 2 else { return nil }
            return "/sys/fs/fuse/connections/\(numbers[0] << 20 | numbers[1])"
        }
        return nil
    }

    @Test("a mount killed with SIGKILL during saves by rename and in place ends at once, every time, and the store mounts again")
    func killedMountEnds() throws {
        try withTemporaryDirectory { folder in
            // A synchronization pass every 50 ms: the folder watcher waits for a quiet moment, which
            // saves going on never leave, so the periodic pass is what merges the deliveries.
            let environment = ["XDG_STATE_HOME": folder + "/state", "MINUTAFS_SYNC_PERIOD": "0.05"]
            var mounted = try MountedStore(in: folder, environment: environment)
            let progress = folder + "/progress", stop = folder + "/stop", scriptPath = folder + "/savers.py"
            _ = FileManager.default.createFile(atPath: progress, contents: nil)
            try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
            let savers = Process()
            savers.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            savers.arguments = [scriptPath, mounted.january, progress, stop, mounted.store]
            savers.standardInput = FileHandle.nullDevice
            try savers.run()
            defer {
                _ = FileManager.default.createFile(atPath: stop, contents: nil)
                if !eventually(within: 60, { !savers.isRunning }) { savers.terminate() }
            }
            func saves() -> Int { (try? FileManager.default.attributesOfItem(atPath: progress)[.size] as? Int) ?? 0 }

            var stuck = 0
            for kill in 1...Self.kills {
                // Saves going on through this mount.
                let before = saves()
                try #require(eventually(within: 120) { saves() >= before + 8 }, "kill \(kill): no saves through the new mount")
                let pid = mounted.process.processIdentifier
                let connection = try #require(Self.connection(of: mounted.mountPoint))
                try #require(Glibc.kill(pid, SIGKILL) == 0)
                if !eventually(within: 30, { Self.hasEnded(pid) }) {
                    stuck += 1
                    Issue.record("kill \(kill): the mount's process \(pid) did not end: threads \(Self.threadStates(pid))")
                    // What a user sees: the store is refused, naming the connection and how to free it.
                    try FileManager.default.createDirectory(atPath: folder + "/other", withIntermediateDirectories: true)
                    let refused = try MinutafsBinary.run(["mount", mounted.store, folder + "/other"], environment: environment)
                    #expect(refused.status == 1, "\(refused.errorText)")
                    #expect(refused.errorText.contains("echo 1 > \(connection)/abort") && refused.errorText.contains("fusermount3 -u \(mounted.mountPoint)"),
                            "\(refused.errorText)")
                    // The FUSE control file system is not mounted everywhere (this container's /sys has none).
                    let abort = try Shell.run(
                        "test -d '\(connection)' || mount -t fusectl none /sys/fs/fuse/connections; echo 1 > '\(connection)/abort'")
                    try #require(abort.status == 0, "\(abort.output)")
                    try #require(eventually(within: 60) { Self.hasEnded(pid) }, "kill \(kill): the mount did not end even once its connection was aborted")
                }
                #expect(mounted.unmount() == nil, "kill \(kill): the mount exited by itself")
                #expect(!MountedStore.isMounted(mounted.mountPoint))
                mounted = try MountedStore(in: folder, copyingSample: false, environment: environment)
            }
            #expect(stuck == 0, "\(stuck) of \(Self.kills) killed mounts did not end")
            // The last mount serves and unmounts cleanly once the savers stopped.
            _ = FileManager.default.createFile(atPath: stop, contents: nil)
            #expect(eventually(within: 60) { !savers.isRunning }, "the savers did not stop")
            #expect(try Shell.run("cat '\(mounted.mountPoint)/tags.json' > /dev/null").status == 0)
            #expect(mounted.unmount() == 0)
        }
    }
}

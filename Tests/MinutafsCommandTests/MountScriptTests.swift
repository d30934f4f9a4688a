import Foundation
import Testing
import TestSupport

/// The files in `mount-scripts/` (SPEC §7): the systemd user unit's command lines, the fstab
/// helper and the wait-and-mount script mount a real store and unmount it cleanly.
@Suite(.serialized)
struct MountScriptTests {
    static var scripts: String { Fixtures.packageRoot + "/mount-scripts" }

    /// Whether the kernel has a mount at `path` (`/proc/mounts` escapes spaces as `\040`).
    static func isMounted(_ path: String) -> Bool {
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        let escaped = path.replacingOccurrences(of: " ", with: "\\040")
        return mounts.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first.map(String.init) == escaped }
    }


    /// Runs a command to its end; returns its status and what it printed.
    @discardableResult
    static func run(_ arguments: [String], environment: [String: String] = [:], unsetting: [String] = []) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }.filter { !unsetting.contains($0.key) }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("minutafs-script-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// Never leaves a mount behind, whatever the test did.
    static func forceUnmount(_ path: String) {
        if isMounted(path) { _ = try? run(["/usr/bin/fusermount3", "-u", "-z", path]) }
    }

    static func makeStore(in folder: String) throws -> String {
        let store = folder + "/Dropbox/Minuta"
        let demo = try MinutafsBinary.run(["demo", store, "--seed", "3", "--now", "2025-06-30T12:00:00Z", "--timezone", "UTC"])
        #expect(demo.status == 0, "\(demo.errorText)")
        return store
    }

    // MARK: The systemd unit

    struct UnitCommands {
        var startPre: [[String]] = []
        var start: [String] = []
        var stop: [[String]] = []
        var stopPost: [[String]] = []
    }

    /// `systemd-escape ARGUMENTS`'s one line of output.
    static func systemdEscape(_ arguments: [String]) throws -> String {
        let result = try run(["/usr/bin/systemd-escape"] + arguments)
        try #require(result.status == 0, "systemd-escape \(arguments): \(result.output)")
        return result.output.trimmingCharacters(in: .newlines)
    }

    /// The unit's Exec lines as systemd would run them for the instance `systemd-escape --path store`
    /// (as the README says to enable it): specifiers (%i, %I, %f by systemd's own unescaping, %h, %E),
    /// the paths `make install` fills in, and `${VAR}` (one word) and `$VAR` (split, gone when empty)
    /// from Environment= lines and `overrides` (what the EnvironmentFile would set).
    static func commands(ofUnit text: String, store: String, home: String, overrides: [String: String]) throws -> UnitCommands {
        var environment: [String: String] = [:]
        var commands = UnitCommands()
        var section = ""
        let binary = try MinutafsBinary.path()
        let instance = try systemdEscape(["--path", store])
        let unescaped = try systemdEscape(["--unescape", instance])
        let unescapedPath = try systemdEscape(["--unescape", "--path", instance])
        func specifiers(_ word: String) -> String {
            word.replacingOccurrences(of: "%I", with: unescaped)
                .replacingOccurrences(of: "%i", with: instance)
                .replacingOccurrences(of: "%f", with: unescapedPath)
                .replacingOccurrences(of: "%h", with: home).replacingOccurrences(of: "%E", with: home + "/.config")
                .replacingOccurrences(of: "@BINDIR@", with: (binary as NSString).deletingLastPathComponent)
                .replacingOccurrences(of: "@LIBEXECDIR@", with: scripts)
        }
        func expand(_ line: String) -> [String] {
            var words: [String] = []
            for word in line.split(separator: " ").map(String.init) {
                if word.hasPrefix("${"), word.hasSuffix("}") {
                    words.append(environment[String(word.dropFirst(2).dropLast())] ?? "")
                } else if word.hasPrefix("$") {
                    words += (environment[String(word.dropFirst())] ?? "").split(separator: " ").map(String.init)
                } else {
                    words.append(specifiers(word))
                }
            }
            return words
        }
        for rawLine in text.split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") { section = line; continue }
            guard section == "[Service]", !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            var value = String(line[line.index(after: equals)...])
            if value.hasPrefix("-") { value.removeFirst() } // "-": a failure is ignored
            switch key {
            case "Environment":
                guard let split = value.firstIndex(of: "=") else { continue }
                environment[String(value[..<split])] = specifiers(String(value[value.index(after: split)...]))
                for (name, override) in overrides { environment[name] = override }
            case "ExecStartPre": commands.startPre.append(expand(value))
            case "ExecStart": commands.start = expand(value)
            case "ExecStop": commands.stop.append(expand(value))
            case "ExecStopPost": commands.stopPost.append(expand(value))
            default: continue
            }
        }
        return commands
    }

    @Test("the systemd unit's ExecStart mounts the store in the foreground and its ExecStop unmounts it cleanly")
    func systemdUnit() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.makeStore(in: folder)
            let mountPoint = folder + "/minuta"
            defer { Self.forceUnmount(mountPoint) }
            let unit = try String(contentsOfFile: Self.scripts + "/minutafs@.service", encoding: .utf8)
            let commands = try Self.commands(ofUnit: unit, store: store, home: folder,
                                             overrides: ["MINUTAFS_MOUNTPOINT": mountPoint, "MINUTAFS_OPTIONS": "--timezone UTC"])
            #expect(commands.start.count >= 5 && commands.start[1] == "mount" && commands.start[2] == "-f", "\(commands.start)")
            // The store reaches every command as the absolute path it was enabled with.
            try #require(commands.start.suffix(2) == [store, mountPoint], "\(commands.start)")
            try #require(commands.startPre.first?.last == store, "\(commands.startPre)")
            #expect(commands.stop == [["/usr/bin/fusermount3", "-u", mountPoint]])

            for command in commands.startPre {
                let result = try Self.run(command)
                #expect(result.status == 0, "\(command): \(result.output)")
            }
            let service = Process()
            service.executableURL = URL(fileURLWithPath: commands.start[0])
            service.arguments = Array(commands.start.dropFirst())
            service.standardInput = FileHandle.nullDevice
            service.standardOutput = FileHandle.nullDevice
            service.standardError = FileHandle.nullDevice
            try service.run()
            defer { if service.isRunning { service.terminate() } }

            #expect(eventually(within: 15) { Self.isMounted(mountPoint) }, "not mounted")
            let tags = try String(contentsOfFile: mountPoint + "/tags.json", encoding: .utf8)
            #expect(tags.contains("\"Work\""))
            #expect(try FileManager.default.contentsOfDirectory(atPath: mountPoint + "/records").contains("2025"))

            for command in commands.stop {
                let result = try Self.run(command)
                #expect(result.status == 0, "\(command): \(result.output)")
            }
            #expect(eventually(within: 15) { !service.isRunning }, "minutafs mount -f still running after ExecStop")
            #expect(service.terminationReason == .exit && service.terminationStatus == 0)
            #expect(!Self.isMounted(mountPoint))
            for command in commands.stopPost { try Self.run(command) } // may fail: nothing left to unmount
            #expect(!Self.isMounted(mountPoint))
        }
    }

    // MARK: The fstab helper

    @Test("mount.fuse.minutafs takes mount(8)'s arguments, drops fstab-only options, passes ro and timezone, and unmounts with fusermount3 -u")
    func fstabHelper() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.makeStore(in: folder)
            let mountPoint = folder + "/minuta"
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
            defer { Self.forceUnmount(mountPoint) }
            let environment = ["MINUTAFS": try MinutafsBinary.path()]

            // -f: mount(8)'s "fake" run prints the command and mounts nothing.
            let fake = try Self.run([Self.scripts + "/mount.fuse.minutafs", store, mountPoint, "-f", "-o", "noauto,user,ro,timezone=UTC,x-systemd.automount,nofail"],
                                    environment: environment)
            #expect(fake.status == 0, "\(fake.output)")
            #expect(fake.output.contains("mount --timezone UTC -o ro \(store) \(mountPoint)"), "\(fake.output)")
            #expect(!Self.isMounted(mountPoint))
            // ro and rw reach minutafs in order, which lets the last one win as mount(8) does.
            let both = try Self.run([Self.scripts + "/mount.fuse.minutafs", store, mountPoint, "-f", "-o", "defaults,ro,rw,timezone=UTC"],
                                    environment: environment)
            #expect(both.output.contains("mount --timezone UTC -o ro,rw \(store) \(mountPoint)"), "\(both.output)")

            let result = try Self.run([Self.scripts + "/mount.fuse.minutafs", store, mountPoint, "-o", "defaults,noauto,nofail,_netdev,ro,timezone=UTC,x-systemd.automount"],
                                      environment: environment)
            #expect(result.status == 0, "\(result.output)")
            #expect(Self.isMounted(mountPoint), "\(result.output)")
            #expect(try String(contentsOfFile: mountPoint + "/tags.json", encoding: .utf8).contains("\"tags\""))
            #expect(!FileManager.default.createFile(atPath: mountPoint + "/notes.txt", contents: Data("x".utf8)), "ro was not passed on")

            let unmount = try Self.run(["/usr/bin/fusermount3", "-u", mountPoint])
            #expect(unmount.status == 0, "\(unmount.output)")
            #expect(eventually(within: 10) { !Self.isMounted(mountPoint) })
        }
    }

    @Test("mount.fuse.minutafs fails with one line for a missing mount point argument")
    func fstabHelperUsage() throws {
        let result = try Self.run([Self.scripts + "/mount.fuse.minutafs", "/nowhere"], environment: ["MINUTAFS": try MinutafsBinary.path()])
        #expect(result.status != 0)
        #expect(result.output.hasPrefix("mount.fuse.minutafs: usage"), "\(result.output)")
    }

    @Test("mount.fuse.minutafs for a user without a home (setuid=nobody: HOME=/nonexistent) keeps the mount's state elsewhere and says where")
    func fstabHelperWithoutHome() throws {
        try withTemporaryDirectory { folder in
            let store = try Self.makeStore(in: folder)
            let mountPoint = folder + "/minuta"
            let runtime = folder + "/run"
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            defer { Self.forceUnmount(mountPoint) }
            let helper = Self.scripts + "/mount.fuse.minutafs"
            let binary = try MinutafsBinary.path()

            // Run by root, as at boot, setuid= mounts as that user (whose HOME runuser sets to /nonexistent for nobody).
            let fake = try Self.run([helper, store, mountPoint, "-f", "-o", "setuid=nobody,timezone=UTC"], environment: ["MINUTAFS": binary])
            #expect(fake.output.contains("runuser -u nobody -- \(binary) mount --timezone UTC \(store) \(mountPoint)"), "\(fake.output)")

            // This test cannot become nobody (it may lack /dev/fuse); a HOME that cannot be made, even by root, stands in for it.
            let missingHome = "/proc/minutafs-no-home"
            let result = try Self.run([helper, store, mountPoint, "-o", "timezone=UTC"],
                                      environment: ["MINUTAFS": binary, "HOME": missingHome, "XDG_RUNTIME_DIR": runtime],
                                      unsetting: ["XDG_STATE_HOME", "XDG_CACHE_HOME"])
            #expect(result.status == 0, "\(result.output)")
            #expect(!result.output.contains("mkdir failed"), "\(result.output)")
            #expect(result.output.contains("HOME (\(missingHome)) is not a folder: the mount keeps its state in \(runtime)/minutafs/state"),
                    "\(result.output)")
            #expect(Self.isMounted(mountPoint), "\(result.output)")
            // The background mount's log went to that state folder.
            let state = (try? FileManager.default.contentsOfDirectory(atPath: runtime + "/minutafs/state")) ?? []
            #expect(state.contains { $0.hasPrefix("mount-") && $0.hasSuffix(".log") }, "\(state)")
            #expect(try Self.run(["/usr/bin/fusermount3", "-u", mountPoint]).status == 0)
            #expect(eventually(within: 10) { !Self.isMounted(mountPoint) })
        }
    }

    // MARK: Installing

    @Test("make install and uninstall in scratch roots: merged /usr, PREFIX=/opt/minutafs (the helpers find the installed binary), DESTDIR")
    func install() throws {
        let result = try Self.run(["/bin/bash", Fixtures.packageRoot + "/tools/test-install"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("test-install: ok"), "\(result.output)")
    }

    // MARK: Waiting for the sync tool

    @Test("minutafs-wait-and-mount waits until the sync tool delivers the store, then mounts it")
    func waitAndMount() throws {
        try withTemporaryDirectory { folder in
            let staging = try Self.makeStore(in: folder + "/staging")
            let store = folder + "/Dropbox/Minuta"
            let mountPoint = folder + "/minuta"
            defer { Self.forceUnmount(mountPoint) }
            let waiter = Process()
            waiter.executableURL = URL(fileURLWithPath: Self.scripts + "/minutafs-wait-and-mount")
            waiter.arguments = ["--timeout", "30", store, mountPoint, "--timezone", "UTC"]
            waiter.environment = ProcessInfo.processInfo.environment.merging(["MINUTAFS": try MinutafsBinary.path()]) { _, new in new }
            let messages = folder + "/waiter.log"
            _ = FileManager.default.createFile(atPath: messages, contents: nil)
            let log = try FileHandle(forWritingTo: URL(fileURLWithPath: messages))
            defer { try? log.close() }
            waiter.standardInput = FileHandle.nullDevice
            waiter.standardOutput = log
            waiter.standardError = log
            try waiter.run()
            defer { if waiter.isRunning { waiter.terminate() } }

            // The script has looked, found no store, and says it waits: then it must not have mounted.
            let announced = eventually(within: 10) {
                ((try? String(contentsOfFile: messages, encoding: .utf8)) ?? "").contains("waiting for \(store) to appear")
            }
            #expect(announced, "no 'waiting for' message: \((try? String(contentsOfFile: messages, encoding: .utf8)) ?? "")")
            #expect(waiter.isRunning, "did not wait for the store")
            #expect(!Self.isMounted(mountPoint))
            // The sync tool finishes: the folder appears whole.
            try FileManager.default.createDirectory(atPath: folder + "/Dropbox", withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: staging, toPath: store)

            #expect(eventually(within: 20) { !waiter.isRunning }, "still waiting")
            #expect(waiter.terminationStatus == 0)
            #expect(Self.isMounted(mountPoint))
            #expect(FileManager.default.fileExists(atPath: mountPoint + "/tags.json"))
            #expect(try Self.run(["/usr/bin/fusermount3", "-u", mountPoint]).status == 0)
            #expect(eventually(within: 10) { !Self.isMounted(mountPoint) })
        }
    }

    @Test("minutafs-wait-and-mount -h prints its comment block and nothing of the script")
    func waitHelp() throws {
        let result = try Self.run([Self.scripts + "/minutafs-wait-and-mount", "-h"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("minutafs-wait-and-mount: waits until"), "\(result.output)")
        #expect(result.output.contains("Exit status: 0 ready or mounted"), "\(result.output)")
        #expect(!result.output.contains("set -eu") && !result.output.contains("#"), "\(result.output)")
    }

    @Test("minutafs-wait-and-mount gives up after its timeout with a message")
    func waitTimeout() throws {
        try withTemporaryDirectory { folder in
            let result = try Self.run([Self.scripts + "/minutafs-wait-and-mount", "--timeout", "2", "--wait-only", folder + "/never"])
            #expect(result.status == 1)
            #expect(result.output.contains("no Minuta store appeared within 2 seconds"), "\(result.output)")
        }
    }
}

import Foundation
import Testing
import TestSupport

/// What a new user sees of a background `minutafs mount` (no `-f`): where its log is, that
/// a refused write reaches it, libfuse's own reason when it cannot mount, and `--create`.
@Suite(.serialized)
struct BackgroundMountTests {
    /// The pid in "mounted MNT (pid N); ...".
    static func pid(in output: String) -> pid_t? {
        guard let range = output.range(of: "(pid ") else { return nil }
        return pid_t(output[range.upperBound...].prefix { $0.isNumber })
    }

    /// Unmounts `mountPoint` and waits for the background process `pid` to end.
    static func unmount(_ mountPoint: String, pid: pid_t?) throws {
        _ = try Shell.run("fusermount3 -u '\(mountPoint)' 2>/dev/null || fusermount3 -u -z '\(mountPoint)' 2>/dev/null")
        guard let pid else { return }
        _ = eventually(within: 10) { kill(pid, 0) != 0 }
    }

    @Test("the mounted line and .minutafs/status name the log file, status shows the mount point absolute, and a refused write is in the log")
    func logFileNamed() throws {
        try withTemporaryDirectory { folder in
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: folder + "/store")
            try Shell.run("chmod -R u+w '\(folder)/store'")
            try FileManager.default.createDirectory(atPath: folder + "/mnt", withIntermediateDirectories: false)
            let mountPoint = folder + "/mnt"
            let result = try MinutafsBinary.run(["mount", "--timezone", "UTC", "store", "./mnt"],
                                                environment: ["XDG_STATE_HOME": folder + "/state"], in: folder)
            let pid = Self.pid(in: result.outputText)
            defer { try? Self.unmount(mountPoint, pid: pid) }
            #expect(result.status == 0, "\(result.errorText)")
            let logLine = result.outputText.split(separator: "\n").first { $0.hasPrefix("log (refused writes, merges, errors): ") }
            let log = try #require(logLine.map { String($0.dropFirst("log (refused writes, merges, errors): ".count)) }, "\(result.outputText)")
            #expect(log.hasPrefix(folder + "/state/minutafs/mount-") && log.hasSuffix(".log"), "\(log)")
            #expect(result.outputText.hasPrefix("mounted \(mountPoint) (pid "), "\(result.outputText)")

            let status = String(decoding: try Fixtures.contents(ofFileAtPath: mountPoint + "/.minutafs/status"), as: UTF8.self)
            #expect(status.contains("\nlog: \(log)\n"), "\(status)")
            #expect(status.contains("\nmount: \(mountPoint) (rw)\n"), "\(status)")
            #expect(status.contains("store: \(folder)/store\n"), "\(status)")

            #expect(try Fixtures.contents(ofFileAtPath: log).isEmpty)
            let record = mountPoint + "/records/2024/01/" + BadInput.recordName
            #expect(BadInputMountTests.save(Array(#"{ "startTime": broken"#.utf8), to: record).errno == EINVAL)
            let logged = String(decoding: try Fixtures.contents(ofFileAtPath: log), as: UTF8.self)
            #expect(logged.hasPrefix("minutafs: refused a write: records/2024/01/\(BadInput.recordName): line 1, column 16: "), "\(logged)")
            try Self.unmount(mountPoint, pid: pid)
        }
    }

    @Test("a background mount that cannot open /dev/fuse passes on libfuse's reason, as -f shows it",
          .enabled(if: getuid() == 0, "a private /dev/fuse and running as nobody need root"))
    func libfuseReasonPassedOn() throws {
        try withTemporaryDirectory { folder in
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
            try FileManager.default.copyItem(atPath: try Fixtures.directory("stores") + "/app-2024", toPath: folder + "/store")
            try Shell.run("chmod -R a+rX '\(folder)/store'")
            try FileManager.default.createDirectory(atPath: folder + "/mnt", withIntermediateDirectories: false)
            // In a mount namespace of its own, /dev/fuse is a file nobody may open.
            let closed = folder + "/no-fuse"
            _ = FileManager.default.createFile(atPath: closed, contents: nil, attributes: [.posixPermissions: 0])
            let wrapper = ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
                           #"mount --bind "$0" /dev/fuse && exec setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@""#, closed]
            // Run from a folder under one closed to nobody (a clone under root's home or a mktemp -d
            // folder): the background mount must still start its child and pass libfuse's reason on.
            let closedParent = folder + "/closed"
            try FileManager.default.createDirectory(atPath: closedParent + "/inside", withIntermediateDirectories: true)
            #expect(chmod(closedParent, 0o700) == 0 && chmod(closedParent + "/inside", 0o755) == 0)
            for foreground in [true, false] {
                let arguments = ["mount"] + (foreground ? ["-f"] : []) + [folder + "/store", folder + "/mnt"]
                let result = try MinutafsBinary.run(arguments, environment: ["XDG_STATE_HOME": folder + "/state"],
                                                    in: closedParent + "/inside", wrapper: wrapper)
                #expect(result.status == 1, "\(arguments): \(result.errorText)")
                #expect(result.outputText.isEmpty, "\(arguments): \(result.outputText)")
                let lines = result.errorText.split(separator: "\n")
                #expect(lines.contains { $0.contains("/dev/fuse") && $0.contains("Permission denied") }, "\(arguments): \(result.errorText)")
                #expect(lines.last?.hasPrefix("minutafs: \(folder)/mnt: mounting failed") == true, "\(arguments): \(result.errorText)")
            }
        }
    }

    @Test("--create starts a store in a new folder; then mount without it, check and a new record take it as a store")
    func createdStore() throws {
        try withTemporaryDirectory { folder in
            let created = try MountedStore(in: folder, storeName: "Minuta", copyingSample: false, arguments: ["--create"])
            #expect(try created.text(created.mountPoint + "/tags.json").contains("\"tags\": []"))
            #expect(created.unmount() == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: created.store) == ["records"])

            // Nothing was written, yet it is a store now.
            let mounted = try MountedStore(in: folder, storeName: "Minuta", copyingSample: false)
            let record = #"{"startTime": "2025-03-02T10:00:00Z", "endTime": "2025-03-02T11:00:00Z", "comment": "first"}"#
            #expect(try Shell.run("mkdir -p '\(mounted.mountPoint)/records/2025/03' && printf '%s' '\(record)' > '\(mounted.mountPoint)/records/2025/03/new.json'").status == 0)
            #expect(mounted.unmount() == 0)
            #expect(FileManager.default.fileExists(atPath: mounted.store + "/records/2025/03.automerge"))
            let check = try MinutafsBinary.run(["check", mounted.store])
            #expect(check.status == 0, "\(check.outputText)\(check.errorText)")
        }
    }
}

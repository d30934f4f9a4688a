import Foundation
import Testing
import TestSupport

/// `make demo` (SPEC section 7): writes the demo store and mounts it; `ls` shows records. The
/// target runs in a scratch folder with `SWIFT` pointing at a stand-in that reports the already
/// built binary, so the test does not start a second build of the package it runs from.
struct MakeDemoTests {
    @Test("make demo writes a demo store, mounts it in the foreground, and ls shows records")
    func makeDemo() throws {
        try withTemporaryDirectory { folder in
            let binary = try MinutafsBinary.path()
            let standIn = folder + "/swift"
            try Data("#!/bin/sh\n[ \"$2\" = \"--show-bin-path\" ] && echo '\(URL(fileURLWithPath: binary).deletingLastPathComponent().path)'\nexit 0\n".utf8)
                .write(to: URL(fileURLWithPath: standIn))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: standIn)
            let make = Process()
            make.executableURL = URL(fileURLWithPath: "/usr/bin/make")
            make.arguments = ["-f", Fixtures.packageRoot + "/Makefile", "-C", folder, "demo", "SWIFT=" + standIn]
            let log = folder + "/make.log"
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            make.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            make.standardError = make.standardOutput
            try make.run()
            defer {
                _ = try? Shell.run("fusermount3 -u '\(folder)/mnt' 2>/dev/null || fusermount3 -u -z '\(folder)/mnt' 2>/dev/null")
                if make.isRunning { make.terminate() }
                make.waitUntilExit()
            }
            var records: [String] = []
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline && records.isEmpty && make.isRunning {
                if MountedStore.isMounted(folder + "/mnt") {
                    let found = (try? Shell.run("find '\(folder)/mnt/records' -name '*.json'").output) ?? ""
                    records = found.split(separator: "\n").map(String.init)
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
            #expect(records.count > 300, "\(String(decoding: (try? Fixtures.contents(ofFileAtPath: log)) ?? [], as: UTF8.self))")
            #expect(try Shell.run("ls '\(folder)/mnt/records'").status == 0)
            _ = try Shell.run("fusermount3 -u '\(folder)/mnt'")
            make.waitUntilExit()
            #expect(make.terminationStatus == 0)
            #expect(String(decoding: try Fixtures.contents(ofFileAtPath: log), as: UTF8.self).contains("Stop with Ctrl-C"))
        }
    }
}

import Foundation
import Testing
import TestSupport

/// The binary `make install` and `make deb` install links the Swift runtime in (`minutafs now` starts in
/// half the time without loading the runtime's shared libraries). That the packaged binary loads no
/// Swift library is checked on the package itself, by `tools/test-deb` (`ldd`), which `make deb` runs.
@Suite struct StaticRuntimeTests {
    static func sh(_ command: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = URL(fileURLWithPath: Fixtures.packageRoot)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("make install builds with --static-swift-stdlib and installs that build")
    func installBuildsStatic() throws {
        let planned = try Self.sh("make -n install PREFIX=/nonexistent/minutafs-prefix")
        #expect(planned.status == 0, "\(planned.output)")
        let builds = planned.output.split(separator: "\n").filter { $0.contains("swift build -c release") && !$0.contains("--show-bin-path") }
        #expect(!builds.isEmpty && builds.allSatisfy { $0.contains("--static-swift-stdlib") }, "\(planned.output)")
        let installs = planned.output.split(separator: "\n").filter { $0.hasPrefix("install -m 755") && $0.contains("/bin/minutafs\"") }
        #expect(installs.count == 1 && installs.allSatisfy { $0.contains("--static-swift-stdlib") && $0.contains("--show-bin-path") }, "\(planned.output)")
    }
}

import Foundation
import TestSupport
@testable import MinutaFS
import Testing

/// A process started while the mount runs in this process inherits its descriptors: `/dev/fuse` and
/// any file open on the mount. If it closes that file while the mount is being taken down, the close
/// waits for the mount's answer to FLUSH, and the kernel cannot abort the connection for it, because
/// the process itself holds `/dev/fuse`. Before the fix the child blocked for ever (and with it the
/// whole test run, seen once in about ten runs).
@Suite("A child process holding the mount's connection")
struct InheritedConnectionTests {
    @Test("a file closed by such a child after the unmount began is answered, and run() returns")
    func childClosesDuringUnmount() throws {
        // A long grace, so that a loaded machine cannot make the test miss the window it checks.
        let options = MountOptions(handlesSignals: false, detachGrace: 30)
        try MountedTree.with(options: options) { mounted in
            let kernel = try #require(mounted.mount.kernelDescriptor)
            // Open for writing: a file only read is opened without FLUSH (`FOPEN_NOFLUSH`), so its close never waits.
            // Close-on-exec: only the child below gets it (`adddup2` gives it a copy without the flag), not
            // the programs other tests start meanwhile in this process, which would keep the file open on
            // the mount past the grace and have its connection aborted.
            let file = open(mounted.path(InMemoryTree.recordPath), O_RDWR | O_CLOEXEC)
            try #require(file >= 0)
            let connection = try #require(KernelConnection(mountPoint: mounted.mountPoint))
            let child = try ChildHoldingDescriptors(kernel: kernel, file: file)
            defer { child.kill(abortingIfStuck: connection) }
            close(file)

            mounted.mount.unmount()
            // Tell the child to close its copy of the file once the mount point is gone.
            _ = eventually(within: 10, every: 0.002) { !mounted.isMounted }
            #expect(!mounted.isMounted, "the mount point was not detached within 10 s")
            try child.closeFile()

            #expect(child.waitForExit(within: 10) == 0, "the child's close() got no answer")
            let outcome = try #require(mounted.waitForRunToReturn(within: 10), "run() did not return")
            #expect(throws: Never.self) { try outcome.get() }
        }
    }

    @Test("with no file open, the unmount does not wait for the grace")
    func noOpenFileNoWait() throws {
        let options = MountOptions(handlesSignals: false, detachGrace: 60)
        try MountedTree.with(options: options) { mounted in
            #expect(try mounted.run("cat", [mounted.path(InMemoryTree.recordPath)]).outputText == InMemoryTree.record)
            mounted.mount.unmount()
            // 60 s of grace would be spent if serving did not end when the connection ended.
            let outcome = try #require(mounted.waitForRunToReturn(within: 20), "run() waited for the grace")
            #expect(throws: Never.self) { try outcome.get() }
            #expect(!mounted.isMounted)
        }
    }
}

/// `sh` started with `/dev/fuse` as descriptor 3 and a file on the mount as 4; it closes 4 when told to
/// (a line on its standard input), then exits 0.
private final class ChildHoldingDescriptors {
    private let pid: pid_t
    private let input: Int32
    private var exited = false

    init(kernel: Int32, file: Int32) throws {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw TestFailure("pipe failed: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
        posix_spawn_file_actions_adddup2(&actions, kernel, 3)
        posix_spawn_file_actions_adddup2(&actions, file, 4)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        let arguments = ["/bin/sh", "-c", "read line; exec 4<&-; exit 0"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, "/bin/sh", &actions, nil, &argv, environ)
        close(pipeEnds[0])
        guard result == 0 else {
            close(pipeEnds[1])
            throw TestFailure("posix_spawn failed: \(result)")
        }
        self.pid = pid
        self.input = pipeEnds[1]
    }

    func closeFile() throws {
        guard write(input, "go\n", 3) == 3 else { throw TestFailure("cannot write to the child: errno \(errno)") }
    }

    /// The exit status, or nil if it is still running after `seconds`.
    func waitForExit(within seconds: Double) -> Int32? {
        var status: Int32 = 0
        guard eventually(within: seconds, every: 0.005, { waitpid(pid, &status, WNOHANG) == pid }) else { return nil }
        exited = true
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Ends a child still blocked in close(). The kernel waits for a FLUSH's answer even through SIGKILL,
    /// so the connection is aborted first (mounting the FUSE control file system if it is not), and the
    /// test fails instead of hanging.
    func kill(abortingIfStuck connection: KernelConnection) {
        close(input)
        guard !exited else { return }
        if access("/sys/fs/fuse/connections/", F_OK) == 0 && access(connection.controlFolder, F_OK) != 0 {
            _ = try? ProgramResult.run("mount", ["-t", "fusectl", "none", "/sys/fs/fuse/connections"], in: "/")
        }
        connection.abort()
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        exited = true
    }
}

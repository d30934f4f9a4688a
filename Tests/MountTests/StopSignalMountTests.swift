import Foundation
import Testing
import TestSupport

/// SIGTERM ends a mount cleanly (SPEC 6) even when the process that started it blocked the signal:
/// a blocked signal mask is inherited across exec, and test runners and some service managers start
/// programs that way; such a mount ignored `kill` and had to be unmounted by hand.
@Suite(.serialized) struct StopSignalMountTests {
    @Test("a mount started with SIGTERM blocked still ends on SIGTERM, after saving, and unmounts")
    func blockedSigterm() throws {
        try withTemporaryDirectory { folder in
            let blocking = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT}); os.execvp(sys.argv[1], sys.argv[1:])"
            let mounted = try MountedStore(in: folder, wrapper: ["python3", "-c", blocking])
            #expect(kill(mounted.process.processIdentifier, SIGTERM) == 0)
            let ended = eventually(within: 10) { !mounted.process.isRunning && !MountedStore.isMounted(mounted.mountPoint) }
            #expect(ended, "the mount ignored SIGTERM")
            if !ended { _ = mounted.unmount() }
            #expect(mounted.process.terminationReason == .exit && mounted.process.terminationStatus == 0)
        }
    }
}

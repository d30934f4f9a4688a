import ArgumentParser
import Foundation
import Glibc
import MinutaStore
import SystemPackage

extension Minutafs {
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Bring two stores together without a sync tool: every document and image, sending only what the other lacks.",
            discussion: """
                Runs the Automerge sync protocol for tags.automerge and every month either store \
                has (a month only one has is created on the other), then copies missing images; an \
                image both have with different bytes is never overwritten: the other's is kept \
                beside it as a conflict copy (X_0 (HOST's conflicted copy YYYY-MM-DD).jpg) and \
                listed. Each side saves every document it receives before it answers, so a cut \
                connection loses nothing and the next sync finishes. A store that is not mounted is \
                written under its lock, after its waiting conflict copies are merged (as `minutafs \
                merge` does) so the other side receives them; a mounted store (its folder or its \
                mount point) is written through its mount: what is received goes beside the document \
                as a conflict copy (MM (minutafs sync's conflicted copy YYYY-MM-DD).automerge) that \
                the mount merges, and sync waits for it. \
                Sync states are kept per remote in $XDG_STATE_HOME/minutafs/sync/: a second sync \
                sends what changed since, and one round trip for each unchanged document.

                REMOTE is another store folder, [user@]host:PATH (ssh runs `minutafs sync --serve \
                PATH` there; MINUTAFS_SSH names another ssh program), or - for frames on standard \
                input and output (the report then goes to standard error).

                Examples:
                  minutafs sync ~/Minuta /media/usb/Minuta
                  minutafs sync ~/Minuta laptop:Minuta
                  minutafs sync --dry-run ~/Minuta me@server:/srv/minuta
                """
        )

        @Argument(help: ArgumentHelp("The store folder on this machine, or its minutafs mount.", valueName: "store"))
        var store: String?

        @Argument(help: ArgumentHelp("The other store: a folder, [user@]host:PATH, or -.", valueName: "remote"))
        var remote: String?

        @Flag(help: "Say what would change; write nothing on either side.")
        var dryRun = false

        @Option(help: ArgumentHelp("The minutafs program on the ssh remote.", valueName: "program"))
        var remoteMinutafs = "minutafs"

        @Option(help: ArgumentHelp("Serve the store at PATH over standard input and output (what the other side runs).", valueName: "path"))
        var serve: String?

        func validate() throws {
            if serve != nil {
                guard store == nil, remote == nil, !dryRun else { throw ValidationError("--serve takes only the store's path") }
            } else {
                guard store != nil, remote != nil else { throw ValidationError("give the store and the remote: minutafs sync STORE REMOTE") }
            }
        }

        func run() throws {
            signal(SIGPIPE, SIG_IGN)
            try reportingFailures {
                if let serve {
                    try Self.serve(serve)
                } else if let store, let remote {
                    try Self.sync(store: store, remote: SyncRemote(remote), remoteText: remote, dryRun: dryRun, remoteMinutafs: remoteMinutafs)
                }
            }
        }

        /// `host:` and the store's real path: the name the other side keeps its states under.
        static func identity(of store: String) -> String {
            var name = [CChar](repeating: 0, count: 256)
            gethostname(&name, 255)
            let host = String(decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return host + ":" + MountDaemon.absolute(store)
        }

        /// The folder of the states this store keeps for `peer`, nil when there is no state folder.
        static func stateFolder(store: String, peer: String) -> String? {
            MountFolders.current().state.map { $0 + "/sync/" + StoreLock.fileKey(for: FilePath(store)) + "-" + StoreLock.fileKey(forName: "peer " + peer) }
        }

        static func serve(_ path: String) throws(CommandFailure) {
            let access = try SyncStoreAccess.open(path)
            let store = access.store
            var session = SyncSession(side: StoreSyncSide(storePath: store, stateFolder: nil, dryRun: true, delivery: access.delivery),
                                      channel: SyncFrameChannel(), identity: identity(of: store))
            var failure: CommandFailure?
            do {
                try session.serve(stateFolder: { peer in stateFolder(store: store, peer: peer) }, prepare: { dryRun in
                    if !dryRun { try access.mergeWaitingCopies() }
                })
            } catch let error as CommandFailure {
                failure = error
            } catch {
                failure = CommandFailure(path: path, cause: "sync: \(error)")
            }
            // What was delivered to a mount is waited for even after a failure: the peer waits for this
            // process, and its next sync reads the document merged. The conflict copies merged here are
            // said on standard error, which the syncing side's terminal shows (ssh carries it back).
            let merged = access.mergedBeforeSync.map { "\(store): " + $0 }
            for line in merged + access.finish() { FileHandle.standardError.write(Data((line + "\n").utf8)) }
            if let failure { throw failure }
        }

        static func sync(store: String, remote: SyncRemote, remoteText: String, dryRun: Bool, remoteMinutafs: String) throws(CommandFailure) {
            let access = try SyncStoreAccess.open(store)
            let store = access.store
            if case .folder(let other) = remote, SyncStoreAccess.isSameStore(other, as: store) {
                throw CommandFailure(path: remoteText, cause: "is the same store as \(store)")
            }
            if !dryRun { try access.mergeWaitingCopies() }
            var process: Process?
            var channel = SyncFrameChannel()
            var toServer: Pipe?, fromServer: Pipe?
            if let command = remote.serverCommand(remoteMinutafs: remoteMinutafs) {
                let child = Process()
                child.executableURL = URL(fileURLWithPath: command[0].contains("/") ? command[0] : "/usr/bin/env")
                child.arguments = command[0].contains("/") ? Array(command.dropFirst()) : command
                let input = Pipe(), output = Pipe()
                child.standardInput = input
                child.standardOutput = output
                do { try child.run() } catch {
                    throw CommandFailure(path: remoteText, cause: "cannot start \(command[0]): \(error.localizedDescription)")
                }
                process = child
                toServer = input
                fromServer = output
                channel = SyncFrameChannel(input: output.fileHandleForReading.fileDescriptor, output: input.fileHandleForWriting.fileDescriptor)
            }
            let report: (String) -> Void = { line in
                if remote == .standardStreams {
                    FileHandle.standardError.write(Data((line + "\n").utf8))
                } else {
                    print(line)
                }
            }
            let showsProgress = isatty(STDERR_FILENO) != 0
            var session = SyncSession(
                side: StoreSyncSide(storePath: store, stateFolder: nil, dryRun: dryRun, delivery: access.delivery), channel: channel, identity: identity(of: store),
                progress: showsProgress ? { line in FileHandle.standardError.write(Data(("\r\u{1b}[K" + line).utf8)) } : nil)
            var summary = SyncSummary()
            var failure: CommandFailure?
            do {
                try session.run(dryRun: dryRun, stateFolder: { peer in stateFolder(store: store, peer: peer) }, summary: &summary)
            } catch let error as CommandFailure {
                failure = error
            } catch {
                failure = CommandFailure(path: remoteText, cause: "sync stopped: \(error); what was received is saved, sync again to finish")
            }
            if showsProgress { FileHandle.standardError.write(Data("\r\u{1b}[K".utf8)) }
            // Closing both ends: a server still writing an answer gets EPIPE instead of waiting forever.
            try? toServer?.fileHandleForWriting.close()
            try? fromServer?.fileHandleForReading.close()
            process?.waitUntilExit()
            summary.notes = access.mergedBeforeSync + access.finish()
            if let failure { throw failure }
            if let process, process.terminationStatus != 0 {
                throw CommandFailure(path: remoteText, cause: "the serving minutafs exited with status \(process.terminationStatus)")
            }
            for line in summary.lines(dryRun: dryRun) { report(line) }
        }
    }
}

import ArgumentParser
import AutomergeKit
import Foundation

extension Minutafs.Doc {
    struct SyncFirst: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync-first",
            abstract: "Print the first sync message a fresh sync state generates for a document, in hex.",
            discussion: """
                The same bytes as automerge 0.6.1's generate_sync_message on a new sync::State \
                (amref sync-first), for checking the engine against the reference.

                Example:
                  minutafs doc sync-first records/2024/03.automerge
                """
        )

        @Argument(help: ArgumentHelp("The Automerge document.", valueName: "document"))
        var input: String

        func run() throws {
            try reportingFailures {
                var document = try SyncServe.loadPeerDocument(input)
                var state = SyncState()
                let message = document.generateSyncMessage(&state)?.encoded ?? []
                print(message.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined())
            }
        }
    }

    struct SyncServe: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync-serve",
            abstract: "Be a sync peer over standard input and output, then save the document.",
            discussion: """
                Reads frames (a 4-byte big-endian length, then one sync message; length 0 for \
                none), applies each message and answers each frame with one: the next message, or \
                length 0 when there is nothing to send. At the end of its input it saves the \
                document to OUT. The same frames as amref sync-serve. FILE - starts from an empty \
                document. Nothing is saved when a message is malformed or does not apply.

                Example:
                  minutafs doc sync-serve 03.automerge merged.automerge < frames
                """
        )

        @Argument(help: ArgumentHelp("The Automerge document to start from (- for an empty one).", valueName: "document"))
        var input: String

        @Argument(help: ArgumentHelp("Where to save the document at the end.", valueName: "out"))
        var output: String

        func run() throws {
            try reportingFailures {
                var document = try Self.loadPeerDocument(input)
                var state = SyncState()
                var channel = SyncFrameChannel()
                do {
                    while let frame = try channel.receive() {
                        if !frame.isEmpty {
                            let message: SyncMessage
                            do { message = try SyncMessage.decode(frame) } catch {
                                throw CommandFailure(path: "standard input", cause: "sync message: \(error)")
                            }
                            do { try document.receiveSyncMessage(message, state: &state) } catch {
                                throw CommandFailure(path: "standard input", cause: "cannot apply a sync message: \(error)")
                            }
                        }
                        try channel.send(document.generateSyncMessage(&state)?.encoded)
                    }
                } catch let failure as SyncFrameChannel.Failure {
                    throw CommandFailure(path: "standard input", cause: failure.description)
                }
                let bytes: [UInt8]
                do { bytes = try document.save() } catch {
                    throw CommandFailure(path: output, cause: "cannot save: \(error)")
                }
                try DocumentFile.write(bytes, toPath: output)
            }
        }

        /// The document a peer starts from: `-` an empty one; a file as the reference loads it
        /// (changes waiting for dependencies included).
        static func loadPeerDocument(_ path: String) throws(CommandFailure) -> Document {
            guard path != "-" else { return Document() }
            let bytes = try DocumentFile.readBytes(atPath: path)
            do {
                return try Document.load(bytes)
            } catch {
                throw CommandFailure(path: path, cause: error.description)
            }
        }
    }
}

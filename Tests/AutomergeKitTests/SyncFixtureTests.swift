import AutomergeKit
import Testing
import TestSupport

/// The sync protocol against the reference's recorded behaviour (`Tests/Fixtures/sync/`, made by
/// `tools/record-sync-fixtures` with amref): the same document and state give the same bytes.
struct SyncFixtureTests {
    /// `first-messages.txt`: fixture name and the hex of amref's first message for it.
    static func firstMessages() throws -> [(String, String)] {
        try Fixtures.text("first-messages.txt", in: "sync").split(separator: "\n").map { line in
            let fields = line.split(separator: " ")
            guard fields.count == 2 else { throw FixtureError("first-messages.txt: bad line \(line)") }
            return (String(fields[0]), String(fields[1]))
        }
    }

    @Test("every fixture document is recorded")
    func everyDocumentRecorded() throws {
        let recorded = Set(try Self.firstMessages().map(\.0))
        #expect(recorded == Set(try Fixtures.names(withExtension: "automerge")))
    }

    @Test("a fresh sync state's first message is the reference's, byte for byte",
          arguments: try firstMessages())
    func firstMessage(name: String, hex: String) throws {
        var document = try Document.load(Fixtures.bytes(name))
        var state = SyncState()
        let generated = document.generateSyncMessage(&state)
        let message = try #require(generated)
        #expect(hexString(message.encoded) == hex)
        #expect(state.inFlight && state.haveResponded)
    }

    @Test("two engine peers say exactly what two reference peers said, and end at the reference's merged heads",
          arguments: try Fixtures.names(withExtension: "txt", in: "sync", subfolder: "conversations"))
    func conversation(name: String) throws {
        let recorded = try RecordedConversation(Fixtures.text(name, in: "sync"))
        var peers = [try recorded.document(recorded.a), try recorded.document(recorded.b)]
        var states = [SyncState(), SyncState()]
        var said: [[UInt8]?] = []
        // As tools/sync-relay drives it: A speaks first, then each answers the other until both are quiet.
        var speaker = 0
        var incoming: [UInt8]? = nil
        var quiet = 0
        while quiet < 2 && said.count < recorded.messages.count + 2 {
            if let incoming {
                try peers[speaker].receiveSyncMessage(SyncMessage.decode(incoming), state: &states[speaker])
            }
            let message = peers[speaker].generateSyncMessage(&states[speaker])?.encoded
            said.append(message)
            quiet = message == nil ? quiet + 1 : 0
            incoming = message
            speaker = 1 - speaker
        }
        #expect(said.count == recorded.messages.count)
        for (index, (mine, theirs)) in zip(said, recorded.messages).enumerated() {
            #expect(mine.map(hexString) == theirs.map(hexString), "message \(index + 1) of \(name)")
        }
        #expect(peers[0].heads.map(\.hexString) == recorded.headsA)
        #expect(peers[1].heads.map(\.hexString) == recorded.headsB)
    }

    @Test("every recorded message decodes and encodes to the same bytes",
          arguments: try Fixtures.names(withExtension: "txt", in: "sync", subfolder: "conversations"))
    func roundTrip(name: String) throws {
        let recorded = try RecordedConversation(Fixtures.text(name, in: "sync"))
        for case let bytes? in recorded.messages {
            #expect(try SyncMessage.decode(bytes).encoded == bytes)
        }
    }
}

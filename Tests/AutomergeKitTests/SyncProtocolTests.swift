import AutomergeKit
import Testing
import TestSupport

/// The sync protocol's behaviour beyond the recorded conversations: persisted states, what is
/// sent, malformed input.
struct SyncProtocolTests {
    /// Runs two peers to quiet as a connection would: `a` speaks first. Returns the messages' bytes
    /// in order (nil for "nothing to send").
    @discardableResult
    static func converge(_ a: inout Document, _ stateA: inout SyncState, _ b: inout Document, _ stateB: inout SyncState) throws -> [[UInt8]?] {
        var said: [[UInt8]?] = []
        var incoming: [UInt8]? = nil
        var quiet = 0
        var turn = 0
        while quiet < 2 {
            try #require(said.count < 50, "no convergence")
            let message: [UInt8]?
            if turn == 0 {
                if let incoming { try a.receiveSyncMessage(SyncMessage.decode(incoming), state: &stateA) }
                message = a.generateSyncMessage(&stateA)?.encoded
            } else {
                if let incoming { try b.receiveSyncMessage(SyncMessage.decode(incoming), state: &stateB) }
                message = b.generateSyncMessage(&stateB)?.encoded
            }
            said.append(message)
            quiet = message == nil ? quiet + 1 : 0
            incoming = message
            turn = 1 - turn
        }
        return said
    }

    static func pair() throws -> (Document, Document) {
        (try Document.load(Fixtures.bytes("concurrent-fields.a.automerge")),
         try Document.load(Fixtures.bytes("concurrent-fields.b.automerge")))
    }

    @Test("after a sync, both peers hold the same heads and the states agree on them")
    func converges() throws {
        var (a, b) = try Self.pair()
        var stateA = SyncState(), stateB = SyncState()
        try Self.converge(&a, &stateA, &b, &stateB)
        #expect(a.heads == b.heads)
        #expect(stateA.sharedHeads == a.heads && stateB.sharedHeads == b.heads)
    }

    @Test("a persisted state round-trips through its bytes: 0x43 and the shared heads")
    func stateRoundTrip() throws {
        var (a, b) = try Self.pair()
        var stateA = SyncState(), stateB = SyncState()
        try Self.converge(&a, &stateA, &b, &stateB)
        let bytes = stateA.encoded
        #expect(bytes.first == 0x43 && bytes.count == 2 + 32 * a.heads.count)
        let decoded = try SyncState.decode(bytes)
        #expect(decoded.sharedHeads == stateA.sharedHeads)
        #expect(decoded.theirHave == [] && decoded.theirHeads == nil && !decoded.haveResponded)
    }

    @Test("with persisted states an unchanged document takes one round trip and sends no change")
    func unchangedIsOneRoundTrip() throws {
        var (a, b) = try Self.pair()
        var stateA = SyncState(), stateB = SyncState()
        try Self.converge(&a, &stateA, &b, &stateB)
        var laterA = try SyncState.decode(stateA.encoded), laterB = try SyncState.decode(stateB.encoded)
        let said = try Self.converge(&a, &laterA, &b, &laterB)
        // A asks, B answers, then both are quiet.
        #expect(said.count == 4 && said[2] == nil && said[3] == nil)
        for case let bytes? in said { #expect(try SyncMessage.decode(bytes).changes.isEmpty) }
    }

    @Test("with persisted states one new change is all that is sent")
    func oneEditSendsOneChange() throws {
        var (a, b) = try Self.pair()
        var stateA = SyncState(), stateB = SyncState()
        try Self.converge(&a, &stateA, &b, &stateB)
        try a.put(.string("later"), forKey: "syncTest")
        let committed = a.commit()
        let newChange = try #require(committed)
        let countBefore = b.changeCount
        var laterA = try SyncState.decode(stateA.encoded), laterB = try SyncState.decode(stateB.encoded)
        let said = try Self.converge(&a, &laterA, &b, &laterB)
        #expect(b.changeCount == countBefore + 1 && b.containsChange(newChange))
        #expect(a.heads == b.heads)
        let changeBytes = said.compactMap { $0 }.map { (try? SyncMessage.decode($0).changes.map(\.count).reduce(0, +)) ?? -1 }.reduce(0, +)
        #expect(changeBytes > 0 && changeBytes < 400, "\(changeBytes) bytes of changes for one small edit")
    }

    @Test("a peer that lost its data is sent everything again")
    func lostPeerResyncs() throws {
        var (a, b) = try Self.pair()
        var stateA = SyncState(), stateB = SyncState()
        try Self.converge(&a, &stateA, &b, &stateB)
        var emptyB = Document()
        var freshB = SyncState()
        var laterA = try SyncState.decode(stateA.encoded)
        try Self.converge(&a, &laterA, &emptyB, &freshB)
        #expect(emptyB.heads == a.heads)
    }

    @Test("a malformed message is refused with an error, never a crash", arguments: [
        [], [0x99], [0x42], [0x42, 0x01, 0xaa], [0x42, 0x80], [0x42, 0x80, 0x00],
        [0x42, 0xff, 0xff, 0xff, 0xff, 0x0f], [0x42, 0x00, 0x00, 0x01, 0x00, 0x05, 0x01, 0x0a, 0x07],
        [0x42, 0x00, 0x00, 0x01, 0x00, 0x03, 0x80, 0x80, 0x80], [0x42, 0x00, 0x00, 0x00, 0x02, 0x01, 0x01],
        [0x43, 0x00, 0x00, 0x00, 0x00, 0x03, 0x01], [0x42, 0x00, 0x00, 0x01, 0x00, 0x06, 0xff, 0xff, 0xff, 0xff, 0x1f, 0x00],
    ] as [[UInt8]])
    func malformed(bytes: [UInt8]) {
        #expect(throws: AutomergeError.self) { try SyncMessage.decode(bytes) }
    }

    @Test("bytes after the capabilities are ignored, as the reference ignores them")
    func trailingBytes() throws {
        let message = try SyncMessage.decode([0x42, 0x00, 0x00, 0x00, 0x00, 0x01, 0x02, 0xee, 0xee])
        #expect(message.capabilities == [.messageV2] && message.changes.isEmpty && message.version == .v1)
    }

    @Test("a filter with entries but no bits holds nothing and does not trap")
    func degenerateFilter() throws {
        // 3 entries, 0 bits per entry, 7 probes: no bit array.
        let message = try SyncMessage.decode([0x42, 0x00, 0x00, 0x01, 0x00, 0x03, 0x03, 0x00, 0x07, 0x00])
        let hash = try #require(try Document.load(Fixtures.bytes("minuta-tags.automerge")).heads.first)
        #expect(message.have.first?.bloom.contains(hash) == false)
        // And a peer given it still sends its changes.
        var document = try Document.load(Fixtures.bytes("minuta-tags.automerge"))
        var state = SyncState()
        try document.receiveSyncMessage(message, state: &state)
        let generated = document.generateSyncMessage(&state)
        let reply = try #require(generated)
        #expect(!reply.changes.isEmpty)
    }

    @Test("a Bloom filter holds every hash put in it")
    func bloomHoldsItsHashes() throws {
        let hashes = try Document.load(Fixtures.bytes("minuta-month.automerge")).changes.map(\.hash)
        let filter = BloomFilter(hashes: hashes)
        #expect(hashes.allSatisfy(filter.contains))
        // The entry count (LEB128), 10 bits per entry and 7 probes (one byte each), then the bits.
        let countBytes = hashes.count < 128 ? 1 : 2
        #expect(filter.encoded.count == countBytes + 2 + (hashes.count * 10 + 7) / 8)
        #expect(BloomFilter().encoded.isEmpty && !BloomFilter().contains(hashes[0]))
    }

    @Test("a state that is not one is refused", arguments: [[], [0x42, 0x00], [0x43, 0x01, 0x00]] as [[UInt8]])
    func badState(bytes: [UInt8]) {
        #expect(throws: AutomergeError.self) { try SyncState.decode(bytes) }
    }

    @Test("a change that does not load leaves the document as it was")
    func badChangeLeavesDocument() throws {
        var document = try Document.load(Fixtures.bytes("minuta-tags.automerge"))
        let heads = document.heads
        var state = SyncState()
        let message = SyncMessage(version: .v1, heads: [], need: [], have: [], changes: [[0x85, 0x6f, 0x4a, 0x83, 0, 0, 0, 0, 1, 5, 1, 2]], capabilities: nil)
        #expect(throws: AutomergeError.self) { try document.receiveSyncMessage(message, state: &state) }
        #expect(document.heads == heads)
    }

    @Test("with a peer that does not advertise version 2, changes go as version 1 messages, a chunk per change")
    func versionOnePeer() throws {
        var (a, b) = try Self.pair()
        let missing = a.changeCount + b.changeCount
        var stateA = SyncState(), stateB = SyncState()
        var incoming: SyncMessage? = nil
        var quiet = 0, turn = 0, rounds = 0
        var versionOneChanges = 0
        while quiet < 2 && rounds < 50 {
            rounds += 1
            var message: SyncMessage?
            if turn == 0 {
                if let incoming { try a.receiveSyncMessage(incoming, state: &stateA) }
                message = a.generateSyncMessage(&stateA)
            } else {
                if let incoming { try b.receiveSyncMessage(incoming, state: &stateB) }
                message = b.generateSyncMessage(&stateB)
            }
            // An old peer: it says nothing of its capabilities.
            message?.capabilities = nil
            if let message, !message.changes.isEmpty {
                #expect(message.version == .v1)
                versionOneChanges += message.changes.count
                // Each element is one change chunk: the same bytes decode as one change each.
                let bytes = try SyncMessage.decode(message.encoded)
                #expect(bytes == message)
            }
            quiet = message == nil ? quiet + 1 : 0
            incoming = message
            turn = 1 - turn
        }
        #expect(a.heads == b.heads)
        #expect(versionOneChanges > 0 && versionOneChanges <= missing)
    }
}

import AutomergeKit

/// What the fuzzer asks of the sync message decoder with one input: a typed error or a message
/// that encodes to bytes decoding to the same message, and that an empty document can take and
/// answer without trapping. Inputs whose first byte is not a sync message's (0x42, 0x43) are
/// refused at that byte, so this costs nothing for the load fuzzing's inputs.
enum SyncMessageFuzzing {
    static func exercise(_ bytes: [UInt8]) {
        guard let message = try? SyncMessage.decode(bytes) else { return }
        guard let again = try? SyncMessage.decode(message.encoded), again == message else {
            preconditionFailure("a decoded sync message does not survive encoding")
        }
        var document = Document()
        var state = SyncState()
        if (try? document.receiveSyncMessage(message, state: &state)) != nil {
            _ = document.generateSyncMessage(&state)
        }
    }
}

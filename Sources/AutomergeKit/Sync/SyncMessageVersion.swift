/// The version of a sync message, its first byte.
public enum SyncMessageVersion: UInt8, Sendable, Equatable {
    /// The original format: `changes` is a list of change chunks. First byte 0x42.
    case v1 = 0x42
    /// `changes` holds at most one blob: a saved document or change chunks one after another.
    /// Sent only to a peer that advertised ``SyncCapability/messageV2``. First byte 0x43.
    case v2 = 0x43
}

/// A feature a sync peer advertises in its first message: the message versions it reads.
public enum SyncCapability: Sendable, Equatable, Hashable {
    /// Reads version 1 messages (changes as a list of change chunks). Byte 0x01.
    case messageV1
    /// Reads version 2 messages (changes as one blob: a whole document or concatenated changes). Byte 0x02.
    case messageV2
    /// A byte this engine does not know, kept so that the message re-encodes as it came.
    case unknown(UInt8)

    init(byte: UInt8) {
        switch byte {
        case 0x01: self = .messageV1
        case 0x02: self = .messageV2
        default: self = .unknown(byte)
        }
    }

    var byte: UInt8 {
        switch self {
        case .messageV1: 0x01
        case .messageV2: 0x02
        case .unknown(let byte): byte
        }
    }
}

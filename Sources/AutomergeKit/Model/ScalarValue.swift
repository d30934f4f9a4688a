/// A value that is not an object.
///
/// Read from a document, `counter` holds the counter's current total (its start value plus every
/// increment); inside an operation it holds the start value.
public enum ScalarValue: Equatable, Sendable {
    case null
    case boolean(Bool)
    case int(Int64)
    case uint(UInt64)
    case f64(Double)
    case string(String)
    case bytes([UInt8])
    case counter(Int64)
    /// Milliseconds since the Unix epoch.
    case timestamp(Int64)
    /// A value type this version of the format does not know, kept byte for byte.
    case unknown(typeCode: UInt8, bytes: [UInt8])

    public static func == (left: ScalarValue, right: ScalarValue) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case let (.boolean(a), .boolean(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.uint(a), .uint(b)): a == b
        case let (.f64(a), .f64(b)): a.bitPattern == b.bitPattern
        // Strings compare by their bytes, as the format does, not by canonical equivalence.
        case let (.string(a), .string(b)): a.utf8.elementsEqual(b.utf8)
        case let (.bytes(a), .bytes(b)): a == b
        case let (.counter(a), .counter(b)): a == b
        case let (.timestamp(a), .timestamp(b)): a == b
        case let (.unknown(codeA, bytesA), .unknown(codeB, bytesB)): codeA == codeB && bytesA == bytesB
        default: false
        }
    }
}

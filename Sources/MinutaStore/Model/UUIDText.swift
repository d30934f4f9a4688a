import Foundation

/// UUID strings as the app writes them (`uuidString`: upper-case, 8-4-4-4-12 hex digits).
public enum UUIDText {
    /// Whether `text` is a UUID in any case.
    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte) else { return false }
            }
        }
        return true
    }
}

/// Strings a column decoder read recently, by a cheap hash of their bytes: map keys repeat in every
/// record of a month document, and a string found here is neither allocated nor checked as UTF-8
/// again (its bytes are the same as those of one already checked). The same storage comes back
/// each time, so later comparisons of it are cheap too.
struct ColumnStringCache {
    private var strings = RecentEntries<ColumnString>()

    init() {}

    /// Reads one length-prefixed string as ``ColumnString/read(from:)`` does.
    mutating func read(from reader: inout ByteReader) throws(AutomergeError) -> ColumnString {
        let start = reader.position
        let count = try reader.readLenientLength()
        let range = try reader.readRange(count: count)
        let found: (slot: Int, cached: ColumnString?) = reader.bytes.withUnsafeBufferPointer { buffer in
            let bytes = UnsafeBufferPointer(rebasing: buffer[range])
            let slot = RecentEntries<ColumnString>.slot(ofBytes: bytes)
            guard let cached = strings.entry(at: slot), cached.utf8.count == bytes.count else { return (slot, nil) }
            let same = cached.utf8.withUnsafeBufferPointer { ByteComparison.equal($0, bytes) }
            return (slot, same ? cached : nil)
        }
        if let cached = found.cached { return cached }
        let valid = reader.bytes.withUnsafeBufferPointer { UTF8Validation.isValid(UnsafeBufferPointer(rebasing: $0[range])) }
        guard valid else {
            throw AutomergeError(.invalidValue, "string in column is not valid UTF-8", at: start)
        }
        let string = ColumnString(utf8: Array(reader.bytes[range]))
        strings.set(string, at: found.slot)
        return string
    }
}

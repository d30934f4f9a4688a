/// String values a value decoder read recently, by a cheap hash of their bytes: a month document
/// repeats the same tag ids and texts in many records, and a string found here is neither
/// allocated nor checked as UTF-8 again. Strings of up to 15 bytes are not kept: Swift stores them
/// inline, with nothing to allocate.
struct StringValueCache {
    private static let inlineLength = 15
    private var strings = RecentEntries<String>()
    /// Every one-byte ASCII string, made once instead of validated and built for each character.
    private static let asciiStrings: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

    init() {}

    /// The string in `bytes[range]`, or nil when it is not valid UTF-8.
    mutating func string(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
        // A text holds one character per element, most of them ASCII.
        if range.count == 1, bytes[range.lowerBound] < 0x80 { return Self.asciiStrings[Int(bytes[range.lowerBound])] }
        guard range.count > Self.inlineLength else { return UTF8Validation.string(bytes, range) }
        let found: (slot: Int, cached: String?) = bytes.withUnsafeBufferPointer { buffer in
            let slice = UnsafeBufferPointer(rebasing: buffer[range])
            let slot = RecentEntries<String>.slot(ofBytes: slice)
            guard let cached = strings.entry(at: slot), cached.utf8.count == slice.count else { return (slot, nil) }
            let same = cached.utf8.withContiguousStorageIfAvailable { ByteComparison.equal($0, slice) } ?? cached.utf8.elementsEqual(slice)
            return (slot, same ? cached : nil)
        }
        if let cached = found.cached { return cached }
        guard let text = UTF8Validation.string(bytes, range) else { return nil }
        strings.set(text, at: found.slot)
        return text
    }
}

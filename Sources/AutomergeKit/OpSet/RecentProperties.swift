/// The map keys a load saw last, by a cheap hash of their bytes: a month document names the same
/// few field names in every record, and finding them here costs less than hashing them into the
/// property table's dictionary for each operation.
struct RecentProperties {
    private static let slotCount = 256
    private var names = [ColumnString?](repeating: nil, count: slotCount)
    private var indices = [Int](repeating: 0, count: slotCount)

    /// The property index of `name` in `set`, added to its table if it is new.
    mutating func index(of name: ColumnString, in set: inout OperationSet) -> Int {
        let slot = Self.slot(of: name.utf8)
        if let cached = names[slot], cached.utf8 == name.utf8 { return indices[slot] }
        let index = set.property(name)
        names[slot] = name
        indices[slot] = index
        return index
    }

    /// FNV-1a of the bytes, folded to a slot.
    @inline(__always)
    private static func slot(of bytes: [UInt8]) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(truncatingIfNeeded: (hash ^ (hash >> 16)) & UInt32(slotCount - 1))
    }
}

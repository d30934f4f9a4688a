/// The map keys a load saw last, by the address of their bytes: a month document names the same
/// few field names in every record, and the column decoder hands each of them back in the same
/// storage (``ColumnStringCache``), so finding them here costs neither a hash of their bytes nor a
/// look-up in the property table's dictionary for each operation. A name in other storage, or one
/// whose slot another name took, is looked up in the table as any new name is.
struct RecentProperties {
    private var recent = RecentEntries<(name: ColumnString, index: Int)>()

    /// The property index of `name` in `set`, added to its table if it is new.
    @inline(__always)
    mutating func index(of name: ColumnString, in set: inout OperationSet) -> Int {
        let slot = Self.slot(of: name.utf8)
        if let index = recent.withEntry(at: slot, { $0.name.utf8 == name.utf8 ? $0.index : nil }) { return index }
        let index = set.property(name)
        recent.set((name, index), at: slot)
        return index
    }

    /// The storage's address, multiplied and folded to a slot. A cached name holds its storage, so
    /// no other name's bytes can be at the same address while it is cached.
    @inline(__always)
    private static func slot(of bytes: [UInt8]) -> Int {
        let address = bytes.withUnsafeBufferPointer { UInt64(UInt(bitPattern: $0.baseAddress)) }
        return Int(truncatingIfNeeded: (address &* 0x9e37_79b9_7f4a_7c15) >> 56) & (RecentEntries<(name: ColumnString, index: Int)>.slotCount - 1)
    }
}

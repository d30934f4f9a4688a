/// The small direct-mapped cache behind the loaders' caches of recent strings: 256 slots, each
/// naming an entry of a dense array, so that a cache that one load makes and drops costs only
/// the entries it used. (A sparse array of 256 optional strings is destroyed element by element
/// through the runtime's generic witnesses, used or not: a tenth of loading a small document.)
struct RecentEntries<Element> {
    static var slotCount: Int { 256 }

    /// For each slot, 0 when empty, else its entry's index plus one; allocated on first use.
    private var entryOfSlot: [UInt16] = []
    private var entries: [Element] = []

    init() {}

    /// The slot of a byte string: a hash of its bytes taken eight at a time (a month document's
    /// strings are 36-byte ids, which a byte-at-a-time hash would take longer to hash than to
    /// compare).
    /// Not seeded: strings crafted to share a slot only miss the cache, which costs what a cache
    /// of one slot would.
    @inline(__always)
    static func slot(ofBytes bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let raw = UnsafeRawBufferPointer(bytes)
        let count = raw.count
        var hash = UInt64(truncatingIfNeeded: count) &* 0x9e37_79b9_7f4a_7c15
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xbf58_476d_1ce4_e5b9
                offset += 8
            }
            // The last eight bytes, which may overlap the words before them.
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) &* 0x94d0_49bb_1331_11eb
        } else {
            var tail: UInt64 = 0
            for position in 0..<count { tail |= UInt64(raw[position]) << (8 * UInt64(position)) }
            hash = (hash ^ tail) &* 0x94d0_49bb_1331_11eb
        }
        return Int(truncatingIfNeeded: hash >> 56) & (slotCount - 1)
    }

    /// The entry a slot holds, if any.
    @inline(__always)
    func entry(at slot: Int) -> Element? {
        guard !entryOfSlot.isEmpty else { return nil }
        let stored = Int(entryOfSlot[slot])
        return stored == 0 ? nil : entries[stored - 1]
    }

    /// What `body` makes of the entry a slot holds, read in place (no copy of it to retain and
    /// release); nil for an empty slot.
    @inline(__always)
    func withEntry<Result>(at slot: Int, _ body: (borrowing Element) -> Result?) -> Result? {
        guard !entryOfSlot.isEmpty else { return nil }
        let stored = Int(entryOfSlot[slot])
        guard stored != 0 else { return nil }
        return entries.withUnsafeBufferPointer { body($0[stored - 1]) }
    }

    /// Puts `element` in `slot`, in place of what it held.
    mutating func set(_ element: Element, at slot: Int) {
        if entryOfSlot.isEmpty {
            entryOfSlot = [UInt16](repeating: 0, count: Self.slotCount)
            entries.reserveCapacity(32)
        }
        let stored = Int(entryOfSlot[slot])
        if stored == 0 {
            entries.append(element)
            entryOfSlot[slot] = UInt16(entries.count)
        } else {
            entries[stored - 1] = element
        }
    }
}

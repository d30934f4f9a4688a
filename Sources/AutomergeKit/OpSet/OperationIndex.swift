/// Op id to an index (of an operation in ``OperationSet/operations``, of an element in an
/// object's store): an open-addressing hash table (linear probing, never shrinks, no removal),
/// several times cheaper than `[OpID: Int]` for the lookups and insertions every loaded
/// operation makes.
///
/// Each slot holds the id and its index together (16 bytes), so a probe touches one cache line.
/// Ids are placed by blocks of eight consecutive counters of one actor: the block is mixed with a
/// random seed chosen once per process (as Swift's own dictionaries are seeded once per process),
/// so ids crafted in a file cannot be made to collide, and the counter's low three bits pick the
/// slot in the block. The operations of one change have
/// consecutive counters and mostly come together, so they share a few cache lines instead of
/// each missing the cache at a random slot.
struct OperationIndex: Sendable {
    private struct Slot {
        var counter: UInt64
        var actor: Int32
        /// The stored index, or -1 for an empty slot (indices of operations and elements, which
        /// are far fewer than 2^31).
        var value: Int32
    }

    private static let emptySlot = Slot(counter: 0, actor: 0, value: -1)
    private static let processSeed: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }()

    private var slots: [Slot] = []
    private var shift: UInt64 = 64
    private var seed: UInt64 = 0
    private(set) var count = 0

    init() {}

    /// The index stored for this id.
    subscript(id: OpID) -> Int? {
        guard count > 0 else { return nil }
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var slot = self.slot(for: id)
            while true {
                let entry = slots[slot]
                if entry.value < 0 { return nil }
                if entry.counter == id.counter && entry.actor == id.actor { return Int(entry.value) }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Adds an id; returns the index already stored for it if there is one, which stays unless
    /// `replacing`.
    @discardableResult
    mutating func insert(_ id: OpID, index: Int, replacing: Bool = false) -> Int? {
        precondition(index >= 0 && index <= Int(Int32.max), "an operation index beyond 2^31")
        if (count + 1) * 4 > slots.count * 3 { grow(minimumCount: count + 1) }
        let position = slot(for: id)
        let (found, stored) = slots.withUnsafeMutableBufferPointer { slots -> (Int?, Bool) in
            let mask = slots.count - 1
            var slot = position
            while true {
                let entry = slots[slot]
                if entry.value < 0 { break }
                if entry.counter == id.counter && entry.actor == id.actor {
                    if replacing { slots[slot].value = Int32(truncatingIfNeeded: index) }
                    return (Int(entry.value), false)
                }
                slot = (slot + 1) & mask
            }
            slots[slot] = Slot(counter: id.counter, actor: id.actor, value: Int32(truncatingIfNeeded: index))
            return (nil, true)
        }
        if stored { count += 1 }
        return found
    }

    /// Makes room for `capacity` ids without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        if capacity * 4 > slots.count * 3 { grow(minimumCount: capacity) }
    }

    @inline(__always)
    private func slot(for id: OpID) -> Int {
        // SplitMix64's finalizer after the seed: multiply-shift alone maps consecutive blocks to
        // nearby slots for some multipliers, and linear probing then walks long clusters.
        var mixed = ((id.counter >> 3) ^ (UInt64(UInt32(bitPattern: id.actor)) << 32)) ^ seed
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        mixed ^= mixed >> 31
        let home = Int(truncatingIfNeeded: mixed >> shift)
        return (home & ~7) | Int(truncatingIfNeeded: id.counter & 7)
    }

    private mutating func grow(minimumCount: Int) {
        var size = max(16, slots.count)
        while minimumCount * 4 > size * 3 { size *= 2 }
        let old = slots
        seed = Self.processSeed
        slots = Array(repeating: Self.emptySlot, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        count = 0
        for entry in old where entry.value >= 0 {
            insert(OpID(counter: entry.counter, actor: entry.actor), index: Int(entry.value))
        }
    }
}

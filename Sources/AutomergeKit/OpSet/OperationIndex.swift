/// Op id to the operation's index in ``OperationSet/operations``: an open-addressing hash table
/// (linear probing, never shrinks, no removal), several times cheaper than `[OpID: Int]` for the
/// lookups and insertions every loaded operation makes.
///
/// Slots are hashed with multiply-shift by a random odd multiplier chosen per table, so ids
/// crafted in a file cannot be made to collide.
struct OperationIndex: Sendable {
    private var counters: [UInt64] = []
    private var actors: [Int32] = []
    /// The operation index in each slot, or -1 for an empty slot.
    private var values: [Int] = []
    private var shift: UInt64 = 64
    private var multiplier: UInt64 = 0
    private(set) var count = 0

    init() {}

    /// The index of the operation with this id.
    subscript(id: OpID) -> Int? {
        guard count > 0 else { return nil }
        return values.withUnsafeBufferPointer { values in
            counters.withUnsafeBufferPointer { counters in
                actors.withUnsafeBufferPointer { actors in
                    let mask = values.count - 1
                    var slot = self.slot(for: id)
                    while true {
                        let value = values[slot]
                        if value < 0 { return nil }
                        if counters[slot] == id.counter && actors[slot] == id.actor { return value }
                        slot = (slot + 1) & mask
                    }
                }
            }
        }
    }

    /// Adds an id; returns the index already stored for it if there is one, which stays unless
    /// `replacing`.
    @discardableResult
    mutating func insert(_ id: OpID, index: Int, replacing: Bool = false) -> Int? {
        if (count + 1) * 4 > values.count * 3 { grow(minimumCount: count + 1) }
        let mask = values.count - 1
        var slot = self.slot(for: id)
        while true {
            let value = values[slot]
            if value < 0 { break }
            if counters[slot] == id.counter && actors[slot] == id.actor {
                if replacing { values[slot] = index }
                return value
            }
            slot = (slot + 1) & mask
        }
        counters[slot] = id.counter
        actors[slot] = id.actor
        values[slot] = index
        count += 1
        return nil
    }

    /// Makes room for `capacity` ids without growing again.
    mutating func reserveCapacity(_ capacity: Int) {
        if capacity * 4 > values.count * 3 { grow(minimumCount: capacity) }
    }

    @inline(__always)
    private func slot(for id: OpID) -> Int {
        let key = id.counter ^ (UInt64(UInt32(bitPattern: id.actor)) << 32)
        return Int(truncatingIfNeeded: (key &* multiplier) >> shift)
    }

    private mutating func grow(minimumCount: Int) {
        var size = max(16, values.count)
        while minimumCount * 4 > size * 3 { size *= 2 }
        let oldCounters = counters, oldActors = actors, oldValues = values
        if multiplier == 0 {
            var generator = SystemRandomNumberGenerator()
            multiplier = generator.next() | 1
        }
        counters = Array(repeating: 0, count: size)
        actors = Array(repeating: 0, count: size)
        values = Array(repeating: -1, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
        count = 0
        for slot in oldValues.indices where oldValues[slot] >= 0 {
            insert(OpID(counter: oldCounters[slot], actor: oldActors[slot]), index: oldValues[slot])
        }
    }
}

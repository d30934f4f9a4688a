/// Automerge's total order of operation ids: by counter, then by the actor's bytes (given as each
/// actor index's rank among the document's actors).
struct LamportOrder: Sendable {
    let actorRank: [Int32]

    @inline(__always)
    func precedes(_ left: OpID, _ right: OpID) -> Bool {
        if left.counter != right.counter { return left.counter < right.counter }
        return actorRank[Int(left.actor)] < actorRank[Int(right.actor)]
    }
}

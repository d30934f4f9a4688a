/// Whether a document can be saved whole: the checks a writer makes before it merges something in
/// that it could then not save (SPEC 5a: never write a document that does not load back).
extension Document {
    /// Times in this range are never more than 2^63 - 1 apart: changes all within it need no closer look.
    private static let ordinaryTimes: ClosedRange<Int64> = -(1 << 62)...((1 << 62) - 1)

    /// Throws the error ``save()`` would throw after `other` is merged into this document, without
    /// merging into this one: ``AutomergeError/Kind/unsavableValue`` naming the change whose time a
    /// document chunk cannot hold. Costs a look at each of `other`'s change times when every time is
    /// an ordinary one (within ±2^62, as every clock writes); otherwise a merge into a copy.
    public func requireSavable(merging other: Document) throws(AutomergeError) {
        let last = history.last?.time ?? 0
        if Self.ordinaryTimes.contains(last) && other.history.allSatisfy({ Self.ordinaryTimes.contains($0.time) }) { return }
        var merged = self
        try merged.merge(other)
        try merged.requireSavable()
    }

    /// Throws the error ``save()`` would throw for this document's history, without encoding it.
    /// - Complexity: O(changes).
    public func requireSavable() throws(AutomergeError) {
        var previous: Int64 = 0
        for change in history {
            if change.time.subtractingReportingOverflow(previous).overflow {
                throw AutomergeError(
                    .unsavableValue,
                    "change \(change.hash.hexString) (actor \(change.actor), sequence number \(change.sequence)) cannot be saved in a document chunk: "
                        + "its time \(change.time) differs from the previous change's \(previous) by more than 64 bits hold, "
                        + "and a file saved so would not load (its changes load from change chunks)")
            }
            previous = change.time
        }
    }
}

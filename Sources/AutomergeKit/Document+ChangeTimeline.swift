/// The times of a saved document's changes, read without building the document.
public struct ChangeTimeline: Sendable {
    /// Each change's stored time, in the order the file lists them (always causal).
    public let times: [Int64]
    /// Each change's dependencies, as indexes of earlier changes.
    public let dependencies: [[Int]]
}

extension Document {
    /// The change times and dependencies of a file that is one document chunk (what a full save
    /// writes), from the chunk's change metadata alone: no operation is decoded and no change
    /// rebuilt, so it costs a small part of ``load(_:)``. Nil for any other file (change chunks, or a
    /// document chunk followed by more chunks): load it instead.
    ///
    /// - Throws: ``AutomergeError`` for a malformed chunk.
    public static func changeTimeline(ofFile bytes: [UInt8]) throws(AutomergeError) -> ChangeTimeline? {
        guard !bytes.isEmpty else { return ChangeTimeline(times: [], dependencies: []) }
        var reader = ByteReader(bytes)
        let chunk = try Chunk.read(from: &reader)
        guard chunk.type == .document, reader.isAtEnd else { return nil }
        let rows = try DocumentChunk.parse(chunk).changes
        for (index, row) in rows.enumerated() where row.dependencies.contains(where: { $0 >= index }) {
            throw AutomergeError(.missingDependency, "a change depends on a change that comes after it (missing change)")
        }
        return ChangeTimeline(times: rows.map(\.time), dependencies: rows.map { Array($0.dependencies) })
    }
}

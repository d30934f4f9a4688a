/// Rebuilds the change history of a document chunk from its operations, as the reference does:
/// predecessors are derived from successors, deletions (which a document chunk only records as
/// successor ids) are synthesized with the object and key of what they deleted, each operation is
/// assigned to its change by actor and max op, and each change is encoded as a change chunk to get
/// its hash.
///
/// Everything is kept in flat index arrays (no per-operation arrays, dictionaries or
/// ``ChunkOperation`` values), and every change is encoded into one reused encoder and buffer:
/// a month document has thousands of small changes.
///
/// A *reference* is an operation held by the set (`0..<operationCount`) or a synthesized deletion
/// (`operationCount + d`).
struct HistoryRebuilder {
    private let operationCount: Int
    /// Ids of the synthesized deletions, in the order they were first seen.
    private var deletionIDs: [OpID] = []
    private var deletionByID: [OpID: Int] = [:]
    /// Pairs (reference, index of an operation that has it as a successor), in document order.
    private var linkTargets: [Int] = []
    private var linkSources: [Int] = []

    init(operationCount: Int) {
        self.operationCount = operationCount
    }

    /// Records that the operation at `predecessor` is a predecessor of the operation at `target`.
    mutating func link(predecessor: Int, to target: Int) {
        linkTargets.append(target)
        linkSources.append(predecessor)
    }

    /// Records that the operation at `predecessor` was deleted by `deletion`, an id no operation has.
    mutating func link(predecessor: Int, toDeletion deletion: OpID) {
        let index: Int
        if let existing = deletionByID[deletion] {
            index = existing
        } else {
            index = deletionIDs.count
            deletionIDs.append(deletion)
            deletionByID[deletion] = index
        }
        linkTargets.append(operationCount + index)
        linkSources.append(predecessor)
    }

    /// Encodes every change of `chunk` and records it in `document`'s history, whose operation set
    /// holds the chunk's operations.
    mutating func rebuild(_ chunk: DocumentChunk, into document: inout Document, verifyHeads: Bool) throws(AutomergeError) {
        let set = document.operationSet
        let changeCount = chunk.changes.count
        // The op set's actors: the chunk's table without repeats (change rows already index them).
        let actorCount = set.actors.count
        let referenceCount = operationCount + deletionIDs.count
        deletionByID = [:]

        // Predecessors of each reference (compressed rows: `predecessors[predecessorStart[r]..<predecessorStart[r + 1]]`).
        var predecessorStart = [Int](repeating: 0, count: referenceCount + 1)
        for target in linkTargets { predecessorStart[target + 1] += 1 }
        for position in 0..<referenceCount { predecessorStart[position + 1] += predecessorStart[position] }
        var predecessors = [Int](repeating: 0, count: linkTargets.count)
        var fill = predecessorStart
        for position in linkTargets.indices {
            let target = linkTargets[position]
            predecessors[fill[target]] = linkSources[position]
            fill[target] += 1
        }
        linkTargets = []
        linkSources = []

        // Each actor's change rows, in order (compressed rows again).
        var maxOperations: [UInt64] = []
        maxOperations.reserveCapacity(changeCount)
        var actorRowStart = [Int](repeating: 0, count: actorCount + 1)
        for change in chunk.changes {
            maxOperations.append(change.maxOperation)
            actorRowStart[change.actor + 1] += 1
        }
        for position in 0..<actorCount { actorRowStart[position + 1] += actorRowStart[position] }
        var actorRows = [Int](repeating: 0, count: changeCount)
        fill = actorRowStart
        for row in 0..<changeCount {
            let actor = chunk.changes[row].actor
            let position = fill[actor]
            if position > actorRowStart[actor] && maxOperations[actorRows[position - 1]] > maxOperations[row] {
                throw AutomergeError(.invalidOperation, "changes out of order")
            }
            actorRows[position] = row
            fill[actor] += 1
        }

        // The id of every reference, and the change row each belongs to.
        var referenceIDs: [OpID] = []
        referenceIDs.reserveCapacity(referenceCount)
        for index in 0..<operationCount { referenceIDs.append(set.operations[index].id) }
        referenceIDs.append(contentsOf: deletionIDs)
        var rowStart = [Int](repeating: 0, count: changeCount + 1)
        var rowOfReference = [Int](repeating: 0, count: referenceCount)
        for reference in 0..<referenceCount {
            let id = referenceIDs[reference]
            let actor = Int(id.actor)
            guard actor < actorCount, actorRowStart[actor] < actorRowStart[actor + 1] else {
                throw AutomergeError(.missingActor, "a change referenced an actor index we couldn't find")
            }
            var low = actorRowStart[actor], high = actorRowStart[actor + 1]
            let end = high
            while low < high {
                let middle = (low + high) / 2
                if maxOperations[actorRows[middle]] < id.counter { low = middle + 1 } else { high = middle }
            }
            guard low < end else { throw AutomergeError(.invalidOperation, "an operation belongs to no change (missing change)") }
            let row = actorRows[low]
            rowOfReference[reference] = row
            rowStart[row + 1] += 1
        }
        for actor in 0..<actorCount {
            var expected: UInt64 = 1
            for position in actorRowStart[actor]..<actorRowStart[actor + 1] {
                if chunk.changes[actorRows[position]].sequence != expected {
                    throw AutomergeError(.invalidOperation, "changes out of order (sequence numbers are not consecutive)")
                }
                expected += 1
            }
        }
        for row in 0..<changeCount { rowStart[row + 1] += rowStart[row] }
        var rowReferences = [Int](repeating: 0, count: referenceCount)
        fill = rowStart
        for reference in 0..<referenceCount {
            let row = rowOfReference[reference]
            rowReferences[fill[row]] = reference
            fill[row] += 1
        }
        rowOfReference = []
        fill = []

        precondition(document.history.isEmpty, "history is rebuilt into a new document")
        document.history.reserveCapacity(changeCount)
        document.historyIndex.reserveCapacity(changeCount)
        let order = set.lamportOrder
        var hashes: [ChangeHash] = []
        hashes.reserveCapacity(changeCount)
        var encoder = OperationColumnEncoder()
        var contents: [UInt8] = []
        var localActor = [Int](repeating: -1, count: set.actors.count)
        var others: [Int] = []
        var sortedPredecessors: [OpID] = []
        for row in 0..<changeCount {
            let change = chunk.changes[row]
            let first = rowStart[row], end = rowStart[row + 1]
            let count = end - first
            // Operations in counter order (each change's counters are distinct).
            var sorted = true
            if count > 1 {
                for position in (first + 1)..<end where referenceIDs[rowReferences[position - 1]].counter > referenceIDs[rowReferences[position]].counter {
                    sorted = false
                    break
                }
            }
            if !sorted {
                rowReferences[first..<end].sort { referenceIDs[$0].counter < referenceIDs[$1].counter }
            }
            guard UInt64(count) <= change.maxOperation else {
                throw AutomergeError(.invalidOperation, "incorrect max op")
            }
            let start = change.maxOperation - UInt64(count) + 1
            guard start >= 1 else { throw AutomergeError(.invalidOperation, "missing ops") }
            var dependencies: [ChangeHash] = []
            dependencies.reserveCapacity(change.dependencies.count)
            for index in change.dependencies {
                guard index < hashes.count else { throw AutomergeError(.missingDependency, "a change depends on a change that comes after it (missing change)") }
                dependencies.append(hashes[index])
            }
            dependencies.sort()

            // The actors the change mentions besides its author, sorted by their bytes.
            let author = change.actor
            guard author < localActor.count else {
                throw AutomergeError(.missingActor, "a change referenced an actor index we couldn't find")
            }
            localActor[author] = 0
            others.removeAll(keepingCapacity: true)
            for position in first..<end {
                let reference = rowReferences[position]
                let holder = reference < operationCount ? reference : predecessors[predecessorStart[reference]]
                let object = set.operations[holder].object
                if !object.isRoot { try Self.mention(Int(object.actor), &localActor, &others) }
                if case .element(let element) = writtenKey(of: reference, holder: holder, in: set), !element.isRoot {
                    try Self.mention(Int(element.actor), &localActor, &others)
                }
                for predecessor in predecessorStart[reference]..<predecessorStart[reference + 1] {
                    try Self.mention(Int(set.operations[predecessors[predecessor]].id.actor), &localActor, &others)
                }
            }
            if others.count > 1 {
                let rank = order.actorRank
                others.sort { rank[$0] < rank[$1] }
            }
            for (position, actor) in others.enumerated() { localActor[actor] = position + 1 }

            contents.removeAll(keepingCapacity: true)
            contents.appendLength(dependencies.count)
            for dependency in dependencies { contents.append(contentsOf: dependency.bytes) }
            contents.appendPrefixed(set.actors[author].bytes)
            contents.appendUnsignedLEB128(change.sequence)
            contents.appendUnsignedLEB128(start)
            contents.appendSignedLEB128(change.time)
            if let message = change.message {
                contents.appendPrefixed(message.utf8)
            } else {
                contents.appendLength(0)
            }
            contents.appendLength(others.count)
            for actor in others { contents.appendPrefixed(set.actors[actor].bytes) }

            encoder.reset()
            var counter = start
            for position in first..<end {
                let reference = rowReferences[position]
                let isDeletion = reference >= operationCount
                let holder = isDeletion ? predecessors[predecessorStart[reference]] : reference
                let objectID = set.operations[holder].object
                let object = objectID.isRoot ? nil : ChunkOpID(counter: objectID.counter, actor: localActor[Int(objectID.actor)])
                let key: ChunkKey
                switch writtenKey(of: reference, holder: holder, in: set) {
                case .property(let property): key = .property(set.properties[property])
                case .element(let element):
                    key = element.isRoot ? .head : .element(ChunkOpID(counter: element.counter, actor: localActor[Int(element.actor)]))
                }
                let predecessorRange = predecessorStart[reference]..<predecessorStart[reference + 1]
                let id = ChunkOpID(counter: counter, actor: 0)
                counter += 1
                if isDeletion {
                    encoder.appendOperation(
                        id: id, object: object, key: key, insert: false, action: .delete, value: .null,
                        referenceCount: predecessorRange.count, expand: false, markName: nil, layout: .change)
                } else {
                    encoder.appendOperation(
                        id: id, object: object, key: key, insert: set.operations[holder].insert,
                        action: set.operations[holder].action, value: set.operations[holder].value,
                        referenceCount: predecessorRange.count, expand: set.operations[holder].expand,
                        markName: set.operations[holder].markName, layout: .change)
                }
                if predecessorRange.count == 1 {
                    let predecessor = set.operations[predecessors[predecessorRange.lowerBound]].id
                    encoder.appendReference(ChunkOpID(counter: predecessor.counter, actor: localActor[Int(predecessor.actor)]))
                } else if !predecessorRange.isEmpty {
                    sortedPredecessors.removeAll(keepingCapacity: true)
                    for predecessor in predecessorRange { sortedPredecessors.append(set.operations[predecessors[predecessor]].id) }
                    sortedPredecessors.sort(by: order.precedes)
                    for predecessor in sortedPredecessors {
                        encoder.appendReference(ChunkOpID(counter: predecessor.counter, actor: localActor[Int(predecessor.actor)]))
                    }
                }
            }
            encoder.writeColumns(layout: .change, to: &contents)
            contents.append(contentsOf: change.extraBytes)
            let (bytes, hash) = Chunk.encode(type: .change, contents: contents)

            var actors: [ActorID] = []
            actors.reserveCapacity(others.count + 1)
            actors.append(set.actors[author])
            for actor in others { actors.append(set.actors[actor]); localActor[actor] = -1 }
            localActor[author] = -1
            let changeHash = ChangeHash(bytes: hash)
            hashes.append(changeHash)
            document.historyIndex[changeHash] = document.history.count
            document.history.append(StoredChange(
                hash: changeHash, bytes: bytes, actors: actors, sequence: change.sequence,
                startOperation: start, time: change.time, message: change.message,
                dependencies: dependencies, extraBytes: change.extraBytes, operations: [], operationCount: count))
        }
        // What recording each change would give: heads are the changes no later one depends on;
        // an actor's sequence number is its change count, its max op its last change's.
        var isDependency = [Bool](repeating: false, count: changeCount)
        for change in chunk.changes {
            for index in change.dependencies { isDependency[index] = true }
        }
        document.headSet.reserveCapacity(changeCount - isDependency.lazy.filter { $0 }.count)
        for row in 0..<changeCount where !isDependency[row] { document.headSet.insert(hashes[row]) }
        for actor in 0..<actorCount where actorRowStart[actor] < actorRowStart[actor + 1] {
            let lastRow = actorRows[actorRowStart[actor + 1] - 1]
            document.sequenceByActor[set.actors[actor]] = UInt64(actorRowStart[actor + 1] - actorRowStart[actor])
            document.maxOperationByActor[set.actors[actor]] = maxOperations[lastRow]
        }
        if verifyHeads && Set(chunk.heads) != document.headSet {
            throw AutomergeError(.mismatchingHeads, "the document's stored heads do not match its changes (mismatching heads)")
        }
    }

    /// The key an operation writes; a deletion deletes its holder's element, or writes its key.
    @inline(__always)
    private func writtenKey(of reference: Int, holder: Int, in set: OperationSet) -> OpKey {
        reference >= operationCount && set.operations[holder].insert ? .element(set.operations[holder].id) : set.operations[holder].key
    }

    /// Gives `actor` a place among the change's other actors unless it has one (or is the author).
    @inline(__always)
    private static func mention(_ actor: Int, _ localActor: inout [Int], _ others: inout [Int]) throws(AutomergeError) {
        guard actor < localActor.count else {
            throw AutomergeError(.missingActor, "an operation referenced an actor index we couldn't find")
        }
        if localActor[actor] < 0 {
            localActor[actor] = Int.max
            others.append(actor)
        }
    }
}

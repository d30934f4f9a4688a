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
/// (`operationCount + d`). Index tables are compressed rows: the entries of row `r` are
/// `entries[start[r]..<start[r + 1]]`.
struct HistoryRebuilder {
    private let operationCount: Int
    /// Ids of the synthesized deletions, in the order they were first seen.
    private var deletionIDs: [OpID] = []
    private var deletionByID = OperationIndex()
    /// Pairs (reference, index of an operation that has it as a successor), in document order.
    private var linkTargets: [Int] = []
    private var linkSources: [Int] = []

    /// Each reference's predecessors (operation indices), as compressed rows.
    private var predecessorStart: [Int] = []
    private var predecessors: [Int] = []
    /// Each change row's max op, and each actor's change rows in order, as compressed rows.
    private var maxOperations: [UInt64] = []
    private var actorRowStart: [Int] = []
    private var actorRows: [Int] = []
    /// The id of every reference, and each change row's references, as compressed rows.
    private var referenceIDs: [OpID] = []
    private var rowStart: [Int] = []
    private var rowReferences: [Int] = []

    /// Per change, reused: each actor's index in the change's actor table (-1 when not in it;
    /// the author is 0), the other actors in the order the change lists them, and the chunk.
    private var localActor: [Int] = []
    private var others: [Int] = []
    private var sortedPredecessors: [OpID] = []
    /// The actor table of a change by each author that mentions no other actor, once made.
    private var authorOnlyActors: [[ActorID]?] = []
    private var writer = ChangeColumnWriter()
    /// For the rare change with a mark name, which ``writer`` does not write.
    private var encoder = OperationColumnEncoder()
    private var contents: [UInt8] = []

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
        let index = deletionByID.insert(deletion, index: deletionIDs.count) ?? deletionIDs.count
        if index == deletionIDs.count { deletionIDs.append(deletion) }
        linkTargets.append(operationCount + index)
        linkSources.append(predecessor)
    }

    /// Encodes every change of `chunk` and records it in `document`'s history, whose operation set
    /// holds the chunk's operations.
    mutating func rebuild(_ chunk: DocumentChunk, into document: inout Document, verifyHeads: Bool) throws(AutomergeError) {
        let set = document.operationSet
        groupPredecessors()
        try groupRowsByActor(chunk, actorCount: set.actors.count)
        try assignReferencesToRows(chunk, set: set)

        precondition(document.history.isEmpty, "history is rebuilt into a new document")
        let changeCount = chunk.changes.count
        document.history.reserveCapacity(changeCount)
        document.historyIndex.reserveCapacity(changeCount)
        var hashes: [ChangeHash] = []
        hashes.reserveCapacity(changeCount)
        var largestChange = 0
        for row in 0..<changeCount { largestChange = max(largestChange, rowStart[row + 1] - rowStart[row]) }
        writer.reserve(operationCount: largestChange)
        localActor = [Int](repeating: -1, count: set.actors.count)
        authorOnlyActors = [[ActorID]?](repeating: nil, count: set.actors.count)
        for row in 0..<changeCount {
            let change = try encodeChange(row, of: chunk, set: set, hashes: hashes)
            hashes.append(change.hash)
            document.historyIndex[change.hash] = document.history.count
            document.history.append(change)
        }
        try recordHeads(chunk, hashes: hashes, into: &document, verifyHeads: verifyHeads)
    }

    /// Groups the links by the reference they point at: ``predecessors`` in compressed rows.
    private mutating func groupPredecessors() {
        let referenceCount = operationCount + deletionIDs.count
        deletionByID = OperationIndex()
        predecessorStart = [Int](repeating: 0, count: referenceCount + 1)
        for target in linkTargets { predecessorStart[target + 1] += 1 }
        for position in 0..<referenceCount { predecessorStart[position + 1] += predecessorStart[position] }
        predecessors = [Int](repeating: 0, count: linkTargets.count)
        var fill = predecessorStart
        for position in linkTargets.indices {
            let target = linkTargets[position]
            predecessors[fill[target]] = linkSources[position]
            fill[target] += 1
        }
        linkTargets = []
        linkSources = []
    }

    /// Lists each actor's change rows in order (``actorRows``), refusing max ops that go back.
    private mutating func groupRowsByActor(_ chunk: DocumentChunk, actorCount: Int) throws(AutomergeError) {
        let changeCount = chunk.changes.count
        maxOperations = []
        maxOperations.reserveCapacity(changeCount)
        actorRowStart = [Int](repeating: 0, count: actorCount + 1)
        for change in chunk.changes {
            maxOperations.append(change.maxOperation)
            actorRowStart[change.actor + 1] += 1
        }
        for position in 0..<actorCount { actorRowStart[position + 1] += actorRowStart[position] }
        actorRows = [Int](repeating: 0, count: changeCount)
        var fill = actorRowStart
        for row in 0..<changeCount {
            let actor = chunk.changes[row].actor
            let position = fill[actor]
            if position > actorRowStart[actor] && maxOperations[actorRows[position - 1]] > maxOperations[row] {
                throw AutomergeError(.invalidOperation, "changes out of order")
            }
            actorRows[position] = row
            fill[actor] += 1
        }
    }

    /// Finds the change row of every reference (its actor's first change whose max op reaches its
    /// counter) and lists each row's references (``rowReferences``); checks sequence numbers.
    private mutating func assignReferencesToRows(_ chunk: DocumentChunk, set: OperationSet) throws(AutomergeError) {
        let changeCount = chunk.changes.count, actorCount = set.actors.count
        let referenceCount = operationCount + deletionIDs.count
        referenceIDs = []
        referenceIDs.reserveCapacity(referenceCount)
        for index in 0..<operationCount { referenceIDs.append(set.operations[index].id) }
        referenceIDs.append(contentsOf: deletionIDs)
        rowStart = [Int](repeating: 0, count: changeCount + 1)
        var rowOfReference = [Int](repeating: 0, count: referenceCount)
        // The rows' max ops in the order of ``actorRows``, so that a search reads one array.
        var maxOperationsByActor: [UInt64] = []
        maxOperationsByActor.reserveCapacity(changeCount)
        for position in 0..<changeCount { maxOperationsByActor.append(maxOperations[actorRows[position]]) }
        let failure = Self.findRows(
            of: referenceIDs, actorCount: actorCount, actorRowStart: actorRowStart, actorRows: actorRows,
            maxOperations: maxOperationsByActor, rowOfReference: &rowOfReference, rowStart: &rowStart)
        if let failure { throw failure }
        try checkSequences(chunk, actorCount: actorCount)
        for row in 0..<changeCount { rowStart[row + 1] += rowStart[row] }
        rowReferences = [Int](repeating: 0, count: referenceCount)
        var fill = rowStart
        for reference in 0..<referenceCount {
            let row = rowOfReference[reference]
            rowReferences[fill[row]] = reference
            fill[row] += 1
        }
    }

    /// For each reference, its actor's first row whose max op reaches its counter (in
    /// `rowOfReference`), counting each row's references in `rowStart[row + 1]`; an error for a
    /// reference no row holds. Over pointers: this runs for every operation of a loaded document.
    private static func findRows(
        of ids: [OpID], actorCount: Int, actorRowStart: [Int], actorRows: [Int], maxOperations: [UInt64],
        rowOfReference: inout [Int], rowStart: inout [Int]
    ) -> AutomergeError? {
        ids.withUnsafeBufferPointer { ids in
            actorRowStart.withUnsafeBufferPointer { actorRowStart in
                actorRows.withUnsafeBufferPointer { actorRows in
                    maxOperations.withUnsafeBufferPointer { maxOperations in
                        rowOfReference.withUnsafeMutableBufferPointer { rowOfReference in
                            rowStart.withUnsafeMutableBufferPointer { rowStart in
                                // Operations of one change mostly come together: try the previous
                                // reference's position first.
                                var lastActor = -1, lastPosition = 0
                                for reference in 0..<ids.count {
                                    let id = ids[reference]
                                    let actor = Int(id.actor)
                                    guard actor >= 0, actor < actorCount, actorRowStart[actor] < actorRowStart[actor + 1] else {
                                        return AutomergeError(.missingActor, "a change referenced an actor index we couldn't find")
                                    }
                                    var low = actorRowStart[actor], high = actorRowStart[actor + 1]
                                    let end = high
                                    if actor == lastActor && maxOperations[lastPosition] >= id.counter
                                        && (lastPosition == low || maxOperations[lastPosition - 1] < id.counter) {
                                        low = lastPosition
                                    } else {
                                        while low < high {
                                            let middle = (low + high) / 2
                                            if maxOperations[middle] < id.counter { low = middle + 1 } else { high = middle }
                                        }
                                        guard low < end else {
                                            return AutomergeError(.invalidOperation, "an operation belongs to no change (missing change)")
                                        }
                                        lastActor = actor
                                        lastPosition = low
                                    }
                                    let row = actorRows[low]
                                    rowOfReference[reference] = row
                                    rowStart[row + 1] += 1
                                }
                                return nil
                            }
                        }
                    }
                }
            }
        }
    }

    /// Refuses an actor whose changes are not numbered 1, 2, 3, ...
    private func checkSequences(_ chunk: DocumentChunk, actorCount: Int) throws(AutomergeError) {
        for actor in 0..<actorCount {
            var expected: UInt64 = 1
            for position in actorRowStart[actor]..<actorRowStart[actor + 1] {
                if chunk.changes[actorRows[position]].sequence != expected {
                    throw AutomergeError(.invalidOperation, "changes out of order (sequence numbers are not consecutive)")
                }
                expected += 1
            }
        }
    }

    /// Encodes the change of one row as a change chunk; `hashes` are the earlier rows' hashes.
    private mutating func encodeChange(_ row: Int, of chunk: DocumentChunk, set: OperationSet, hashes: [ChangeHash]) throws(AutomergeError) -> StoredChange {
        let first = rowStart[row], end = rowStart[row + 1]
        sortByCounter(first..<end)
        let maxOperation = chunk.changes[row].maxOperation
        guard UInt64(end - first) <= maxOperation else {
            throw AutomergeError(.invalidOperation, "incorrect max op")
        }
        let start = maxOperation - UInt64(end - first) + 1
        guard start >= 1 else { throw AutomergeError(.invalidOperation, "missing ops") }
        var dependencies = SmallList<ChangeHash>()
        for index in chunk.changes[row].dependencies {
            guard index < hashes.count else { throw AutomergeError(.missingDependency, "a change depends on a change that comes after it (missing change)") }
            dependencies.append(hashes[index])
        }
        if dependencies.count > 1 { dependencies = SmallList(dependencies.sorted()) }
        let author = chunk.changes[row].actor
        try listOtherActors(of: first..<end, author: author, set: set)

        contents.removeAll(keepingCapacity: true)
        writeHeader(ofRow: row, in: chunk, start: start, dependencies: dependencies, set: set)
        if writeOperations(first..<end, set: set) {
            writer.writeColumns(properties: set.properties, to: &contents)
        } else {
            encodeOperations(first..<end, start: start, set: set)
            encoder.writeColumns(layout: .change, to: &contents)
        }
        contents.append(contentsOf: chunk.changes[row].extraBytes)
        let (bytes, hash) = Chunk.encode(type: .change, contents: contents)

        let actors = changeActors(author: author, set: set)
        for actor in others { localActor[actor] = -1 }
        localActor[author] = -1
        return StoredChange(
            hash: hash, bytes: bytes, actors: actors, sequence: chunk.changes[row].sequence,
            startOperation: start, time: chunk.changes[row].time, message: chunk.changes[row].message,
            dependencies: dependencies, extraBytes: chunk.changes[row].extraBytes, operations: [], operationCount: end - first)
    }

    /// The change's actor table: its author, then ``others``. Most changes mention no other actor,
    /// and share one table per author.
    private mutating func changeActors(author: Int, set: OperationSet) -> [ActorID] {
        if others.isEmpty, let shared = authorOnlyActors[author] { return shared }
        var actors: [ActorID] = []
        actors.reserveCapacity(others.count + 1)
        actors.append(set.actors[author])
        for actor in others { actors.append(set.actors[actor]) }
        if others.isEmpty { authorOnlyActors[author] = actors }
        return actors
    }

    /// Puts a change's references in counter order (each change's counters are distinct).
    /// Deletions come after every operation, so a change that deletes is out of order; changes
    /// are short, and an insertion sort moves each deletion back into place without a closure.
    private mutating func sortByCounter(_ range: Range<Int>) {
        guard range.count > 1 else { return }
        if range.count > 32 {
            for position in (range.lowerBound + 1)..<range.upperBound
            where referenceIDs[rowReferences[position - 1]].counter > referenceIDs[rowReferences[position]].counter {
                let ids = referenceIDs
                rowReferences[range].sort { ids[$0].counter < ids[$1].counter }
                return
            }
            return
        }
        for position in (range.lowerBound + 1)..<range.upperBound {
            let reference = rowReferences[position]
            let counter = referenceIDs[reference].counter
            var hole = position
            while hole > range.lowerBound && referenceIDs[rowReferences[hole - 1]].counter > counter {
                rowReferences[hole] = rowReferences[hole - 1]
                hole -= 1
            }
            if hole != position { rowReferences[hole] = reference }
        }
    }

    /// Lists the actors a change mentions besides its author in ``others``, sorted by their bytes,
    /// and numbers them in ``localActor`` (the author is 0).
    private mutating func listOtherActors(of range: Range<Int>, author: Int, set: OperationSet) throws(AutomergeError) {
        guard author < localActor.count else {
            throw AutomergeError(.missingActor, "a change referenced an actor index we couldn't find")
        }
        localActor[author] = 0
        others.removeAll(keepingCapacity: true)
        for position in range {
            let reference = rowReferences[position]
            let holder = reference < operationCount ? reference : predecessors[predecessorStart[reference]]
            let object = set.operations[holder].object
            if !object.isRoot { try mention(Int(object.actor)) }
            if case .element(let element) = writtenKey(of: reference, holder: holder, in: set), !element.isRoot {
                try mention(Int(element.actor))
            }
            for predecessor in predecessorStart[reference]..<predecessorStart[reference + 1] {
                try mention(Int(set.operations[predecessors[predecessor]].id.actor))
            }
        }
        if others.count > 1 {
            let rank = set.lamportOrder.actorRank
            others.sort { rank[$0] < rank[$1] }
        }
        for (position, actor) in others.enumerated() { localActor[actor] = position + 1 }
    }

    /// Writes a change chunk's header fields (before its columns) to ``contents``.
    private mutating func writeHeader(ofRow row: Int, in chunk: DocumentChunk, start: UInt64, dependencies: SmallList<ChangeHash>, set: OperationSet) {
        contents.appendLength(dependencies.count)
        for dependency in dependencies { dependency.append(to: &contents) }
        contents.appendPrefixed(set.actors[chunk.changes[row].actor].bytes)
        contents.appendUnsignedLEB128(chunk.changes[row].sequence)
        contents.appendUnsignedLEB128(start)
        contents.appendSignedLEB128(chunk.changes[row].time)
        if let message = chunk.changes[row].message {
            contents.appendPrefixed(message.utf8)
        } else {
            contents.appendLength(0)
        }
        contents.appendLength(others.count)
        for actor in others { contents.appendPrefixed(set.actors[actor].bytes) }
    }

    /// The row at `position` of a change: its reference, whether it is a deletion (a reference past
    /// the operations, standing for a predecessor it deletes), the operation that holds its key, and
    /// its object as the change writes it (nil: the root).
    @inline(__always)
    private func row(at position: Int, in set: OperationSet) -> (reference: Int, isDeletion: Bool, holder: Int, object: ChunkOpID?) {
        let reference = rowReferences[position]
        let isDeletion = reference >= operationCount
        let holder = isDeletion ? predecessors[predecessorStart[reference]] : reference
        let objectID = set.operations[holder].object
        let object = objectID.isRoot ? nil : ChunkOpID(counter: objectID.counter, actor: localActor[Int(objectID.actor)])
        return (reference, isDeletion, holder, object)
    }

    /// Gives a change's operations, in counter order, to ``writer``; false (and the writer is to be
    /// ignored) when one has a mark name, which the writer does not write.
    private mutating func writeOperations(_ range: Range<Int>, set: OperationSet) -> Bool {
        writer.reset(operationCount: range.count)
        for position in range {
            let (reference, isDeletion, holder, object) = row(at: position, in: set)
            var keyProperty: Int?
            var keyLength = 0
            var keyElement: ChunkOpID?
            switch writtenKey(of: reference, holder: holder, in: set) {
            case .property(let property):
                keyProperty = property
                keyLength = set.properties[property].utf8.count
            case .element(let element):
                if !element.isRoot { keyElement = ChunkOpID(counter: element.counter, actor: localActor[Int(element.actor)]) }
            }
            let predecessorRange = predecessorStart[reference]..<predecessorStart[reference + 1]
            if isDeletion {
                writer.appendOperation(
                    object: object, keyProperty: keyProperty, keyLength: keyLength, keyElement: keyElement, insert: false, action: .delete,
                    value: .null, referenceCount: predecessorRange.count, expand: false)
            } else {
                if set.operations[holder].markName != nil { return false }
                writer.appendOperation(
                    object: object, keyProperty: keyProperty, keyLength: keyLength, keyElement: keyElement, insert: set.operations[holder].insert,
                    action: set.operations[holder].action, value: set.operations[holder].value,
                    referenceCount: predecessorRange.count, expand: set.operations[holder].expand)
            }
            if predecessorRange.count == 1 {
                let predecessor = set.operations[predecessors[predecessorRange.lowerBound]].id
                writer.appendReference(actor: localActor[Int(predecessor.actor)], counter: predecessor.counter)
            } else if !predecessorRange.isEmpty {
                sortedPredecessors.removeAll(keepingCapacity: true)
                for predecessor in predecessorRange { sortedPredecessors.append(set.operations[predecessors[predecessor]].id) }
                sortedPredecessors.sort(by: set.lamportOrder.precedes)
                for predecessor in sortedPredecessors {
                    writer.appendReference(actor: localActor[Int(predecessor.actor)], counter: predecessor.counter)
                }
            }
        }
        return true
    }

    /// Encodes a change's operations, in counter order from `start`, into ``encoder``.
    private mutating func encodeOperations(_ range: Range<Int>, start: UInt64, set: OperationSet) {
        encoder.reset()
        var counter = start
        for position in range {
            let (reference, isDeletion, holder, object) = row(at: position, in: set)
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
            encodePredecessors(predecessorRange, set: set)
        }
    }

    /// Encodes one operation's predecessors, in Lamport order.
    @inline(__always)
    private mutating func encodePredecessors(_ range: Range<Int>, set: OperationSet) {
        if range.count == 1 {
            let predecessor = set.operations[predecessors[range.lowerBound]].id
            encoder.appendReference(ChunkOpID(counter: predecessor.counter, actor: localActor[Int(predecessor.actor)]))
        } else if !range.isEmpty {
            sortedPredecessors.removeAll(keepingCapacity: true)
            for predecessor in range { sortedPredecessors.append(set.operations[predecessors[predecessor]].id) }
            sortedPredecessors.sort(by: set.lamportOrder.precedes)
            for predecessor in sortedPredecessors {
                encoder.appendReference(ChunkOpID(counter: predecessor.counter, actor: localActor[Int(predecessor.actor)]))
            }
        }
    }

    /// What recording each change would give: heads are the changes no later one depends on; an
    /// actor's sequence number is its change count, its max op its last change's. Checks the
    /// chunk's heads against them when asked.
    private func recordHeads(_ chunk: DocumentChunk, hashes: [ChangeHash], into document: inout Document, verifyHeads: Bool) throws(AutomergeError) {
        let changeCount = chunk.changes.count
        let actors = document.operationSet.actors
        var isDependency = [Bool](repeating: false, count: changeCount)
        for change in chunk.changes {
            for index in change.dependencies { isDependency[index] = true }
        }
        document.headSet.reserveCapacity(changeCount - isDependency.lazy.filter { $0 }.count)
        for row in 0..<changeCount where !isDependency[row] { document.headSet.insert(hashes[row]) }
        for actor in 0..<actors.count where actorRowStart[actor] < actorRowStart[actor + 1] {
            let lastRow = actorRows[actorRowStart[actor + 1] - 1]
            document.sequenceByActor[actors[actor]] = UInt64(actorRowStart[actor + 1] - actorRowStart[actor])
            document.maxOperationByActor[actors[actor]] = maxOperations[lastRow]
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
    private mutating func mention(_ actor: Int) throws(AutomergeError) {
        guard actor < localActor.count else {
            throw AutomergeError(.missingActor, "an operation referenced an actor index we couldn't find")
        }
        if localActor[actor] < 0 {
            localActor[actor] = Int.max
            others.append(actor)
        }
    }
}

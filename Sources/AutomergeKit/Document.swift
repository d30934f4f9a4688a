/// An Automerge document: its history of changes and the state they produce.
///
/// Load one with ``load(_:)``, read it with ``keys(of:)``, ``values(of:key:)`` and friends, change
/// it with the editing methods and ``commit(message:time:)``, merge others into it with
/// ``merge(_:)`` and write it with ``save()``. It is a value: copies are independent.
public struct Document: Sendable {
    var operationSet = OperationSet()
    /// Changes in the order they were applied: what ``save()`` lists.
    var history: [StoredChange] = []
    var historyIndex: [ChangeHash: Int] = [:]
    var headSet: Set<ChangeHash> = []
    /// How many changes each actor has in ``history``.
    var sequenceByActor: [ActorID: UInt64] = [:]
    /// The largest op counter of each actor's changes in ``history``.
    var maxOperationByActor: [ActorID: UInt64] = [:]
    /// Changes whose dependencies are missing, waiting for them.
    var queue: [StoredChange] = []
    /// The history length at the last ``save()`` or ``saveIncremental()``.
    var savedHistoryCount = 0
    /// The compressed columns of the last ``save()``, reused for columns whose bytes did not change.
    var compressedColumns = CompressedColumnCache()
    /// The history positions of each change's dependencies, as the last ``save()`` looked them up.
    var dependencyPositions = DependencyPositionCache()
    /// Operations made locally and not committed yet.
    var pending = PendingTransaction()

    /// The actor this document writes local changes as.
    public private(set) var actor: ActorID

    /// A new, empty document that writes as `actor` (a fresh random one when `nil`).
    public init(actor: ActorID? = nil) {
        self.actor = actor ?? .random()
    }

    /// Changes the actor future local changes are written as.
    public mutating func setActor(_ actor: ActorID) {
        self.actor = actor
    }

    /// The current heads: the changes no other change depends on, sorted ascending.
    public var heads: [ChangeHash] { headSet.sorted() }

    /// Every change, in the order the document holds them (always causal).
    public var changes: [ChangeInfo] {
        history.map { change in
            ChangeInfo(
                hash: change.hash, actor: change.actor, sequence: change.sequence,
                startOperation: change.startOperation, operationCount: change.operationCount,
                dependencies: change.dependencies.sorted(), time: change.time, message: change.message)
        }
    }

    /// Whether the change with this hash is in the history.
    public func containsChange(_ hash: ChangeHash) -> Bool { historyIndex[hash] != nil }

    /// How many changes the history holds (cheaper than `changes.count`).
    public var changeCount: Int { history.count }

    /// Whether changes are waiting for dependencies this document does not have.
    public var hasPendingChanges: Bool { !queue.isEmpty }

    /// Records a change as applied: history, heads and sequence numbers.
    mutating func recordInHistory(_ change: StoredChange) {
        historyIndex[change.hash] = history.count
        var kept = change.withoutOperations()
        kept.uncheckedChunkOffset = nil  // applied, so checked
        history.append(kept)
        for dependency in change.dependencies { headSet.remove(dependency) }
        headSet.insert(change.hash)
        sequenceByActor[change.actor, default: 0] += 1
        maxOperationByActor[change.actor] = max(maxOperationByActor[change.actor] ?? 0, change.maxOperation)
    }
}

/// Every operation a document holds, arranged by object and key, with the actor and property
/// tables their ids refer to.
struct OperationSet: Sendable {
    private(set) var actors: [ActorID] = []
    private var actorIndex: [ActorID: Int32] = [:]
    /// `actorRank[i]` is the position of `actors[i]` in byte order, so Lamport comparisons need no
    /// byte comparison.
    private var actorRank: [Int32] = []

    private(set) var properties: [ColumnString] = []
    private var propertyIndex: [ColumnString: Int] = [:]

    var operations: [Operation] = []
    var objects: [OpID: ObjectState] = [.root: ObjectState(type: .map)]
    /// The id of every operation held, to its index in ``operations``.
    var operationByID = OperationIndex()
    private(set) var maxCounter: UInt64 = 0

    // MARK: Tables

    mutating func index(of actor: ActorID) -> Int32 {
        if let index = actorIndex[actor] { return index }
        let index = Int32(actors.count)
        actors.append(actor)
        actorIndex[actor] = index
        let order = actors.indices.sorted { actors[$0] < actors[$1] }
        actorRank = Array(repeating: 0, count: actors.count)
        for (rank, position) in order.enumerated() { actorRank[position] = Int32(rank) }
        return index
    }

    func existingIndex(of actor: ActorID) -> Int32? { actorIndex[actor] }

    mutating func property(_ name: ColumnString) -> Int {
        // One look-up, which adds the name when it is new (hashing its bytes once, not twice): a
        // month document's record keys are all new when it loads.
        let next = properties.count
        let index = Self.readOrAdd(&propertyIndex[name, default: next])
        if index == next { properties.append(name) }
        return index
    }

    /// The value a dictionary's `subscript(_:default:)` accessor holds (the default, stored, when
    /// the key was absent).
    @inline(__always)
    private static func readOrAdd(_ value: inout Int) -> Int { value }

    func existingProperty(_ name: ColumnString) -> Int? { propertyIndex[name] }

    /// Makes room for `count` property names, so that a load adding them one by one does not
    /// rehash the table as it grows.
    mutating func reserveProperties(_ count: Int) {
        propertyIndex.reserveCapacity(count)
        properties.reserveCapacity(count)
    }

    /// Lamport order: counter first, then the actor's bytes.
    @inline(__always)
    func precedes(_ left: OpID, _ right: OpID) -> Bool {
        lamportOrder.precedes(left, right)
    }

    /// The order alone, cheap to capture in a closure (capturing the whole set would copy it).
    var lamportOrder: LamportOrder { LamportOrder(actorRank: actorRank) }

    // MARK: Adding operations

    /// Adds operations read from a document chunk, which lists them in document order (so all
    /// of one object's operations come together, and a map's operations grouped by key).
    ///
    /// Each object's state is updated where the object table keeps it (not taken out and put
    /// back), and the objects an object's operations create are added after its run.
    mutating func appendLoaded(_ loaded: consuming [Operation]) throws(AutomergeError) {
        let base = operations.count
        if operations.isEmpty { operations = loaded } else { operations.append(contentsOf: loaded) }
        let end = operations.count
        operationByID.reserveCapacity(operationByID.count + (end - base))
        var createdCount = 0
        for index in base..<end where operations[index].action.createdObjectType != nil { createdCount += 1 }
        objects.reserveCapacity(objects.count + createdCount)
        var created: [(id: OpID, type: ObjectType)] = []
        // Sequences holding a counter with successors: which operation each element shows is worked out below.
        var sequencesWithCounters: [OpID] = []
        var start = base
        while start < end {
            let objectID = operations[start].object
            var runEnd = start + 1
            while runEnd < end && operations[runEnd].object == objectID { runEnd += 1 }
            created.removeAll(keepingCapacity: true)
            var countersInSequence = false
            try Self.indexLoaded(
                start..<runEnd, of: operations, into: &objects[objectID, default: ObjectState(type: nil)],
                ids: &operationByID, maxCounter: &maxCounter, created: &created, countersInSequence: &countersInSequence)
            if countersInSequence { sequencesWithCounters.append(objectID) }
            // An object created by one of its own operations stays as the run left it.
            for (id, type) in created where id != objectID {
                objects[id, default: ObjectState(type: nil)].type = type
            }
            start = runEnd
        }
        // Which operations of each key are still visible; only now, with every id indexed, can a
        // counter's successors be told apart as increments.
        start = base
        while start < end {
            let objectID = operations[start].object
            var runEnd = start + 1
            var mayHideSome = !isPlainlyVisible(at: start)
            while runEnd < end && operations[runEnd].object == objectID {
                if !mayHideSome && !isPlainlyVisible(at: runEnd) { mayHideSome = true }
                runEnd += 1
            }
            if mayHideSome { indexVisibleKeys(of: objectID) }
            start = runEnd
        }
        for objectID in sequencesWithCounters { indexShownElements(of: objectID) }
    }

    /// Whether the operation is visible without looking at its successors: it has none, and is
    /// not an increment, a mark or a deletion (``isVisible(at:)`` gives the same for it).
    @inline(__always)
    private func isPlainlyVisible(at index: Int) -> Bool {
        Self.isPlainlyVisible(operations[index])
    }

    @inline(__always)
    private static func isPlainlyVisible(_ operation: Operation) -> Bool {
        switch operation.action {
        case .increment, .mark, .delete: false
        default: operation.successors.isEmpty
        }
    }

    /// Works out which operation each element of a sequence shows (``ObjectState/Element/shown``).
    private mutating func indexShownElements(of objectID: OpID) {
        guard var object = objects[objectID], !object.elementStore.isEmpty else { return }
        objects[objectID] = nil  // so the store below is changed in place, not copied
        for store in object.elementStore.indices {
            object.elementStore[store].shown = object.elementStore[store].operations.lastVisible(in: self) ?? -1
        }
        objects[objectID] = object
    }

    /// Works out again which operation one element shows, after an operation on it applied.
    private mutating func refreshShown(of element: OpID, in objectID: OpID) {
        guard let store = objects[objectID]?.elementByID[element],
              let operations = objects[objectID]?.elementStore[store].operations else { return }
        let shown = operations.lastVisible(in: self) ?? -1
        objects[objectID]?.elementStore[store].shown = shown
    }

    /// Fills ``ObjectState/visibleKeys`` for the keys some of whose operations are not visible.
    private mutating func indexVisibleKeys(of objectID: OpID) {
        guard let keys = objects[objectID]?.keys else { return }
        for (property, indices) in keys where indices.contains(where: { !isVisible(at: $0) }) {
            let visible = visibleOperations(indices)
            objects[objectID]?.visibleKeys[property] = visible
        }
    }

    /// Indexes loaded operations of one object: their ids, the objects they create (listed in
    /// `created` for the caller to add), and their places in the object.
    private static func indexLoaded(
        _ range: Range<Int>, of operations: [Operation], into object: inout ObjectState,
        ids: inout OperationIndex, maxCounter: inout UInt64, created: inout [(id: OpID, type: ObjectType)], countersInSequence: inout Bool
    ) throws(AutomergeError) {
        try reserveLoaded(range, of: operations, in: &object)
        var index = range.lowerBound
        while index < range.upperBound {
            switch operations[index].key {
            case .property(let property):
                try indexID(at: index, of: operations, ids: &ids, maxCounter: &maxCounter, created: &created)
                guard !operations[index].insert else { throw AutomergeError(.invalidOperation, "insertion into a map key") }
                // The following operations on the same key (not insertions) join this one.
                var runEnd = index + 1
                while runEnd < range.upperBound, !operations[runEnd].insert,
                      case .property(let next) = operations[runEnd].key, next == property {
                    try indexID(at: runEnd, of: operations, ids: &ids, maxCounter: &maxCounter, created: &created)
                    runEnd += 1
                }
                object.keys[property, default: []].append(contentsOf: index..<runEnd)
                index = runEnd
            case .element(let element):
                try indexID(at: index, of: operations, ids: &ids, maxCounter: &maxCounter, created: &created)
                if operations[index].insert {
                    object.elementByID.insert(operations[index].id, index: object.elementStore.count, replacing: true)
                    object.order.append(object.elementStore.count)
                    let shown = isPlainlyVisible(operations[index]) ? index : -1
                    object.elementStore.append(ObjectState.Element(operations: OperationList(index), shown: shown))
                } else {
                    guard let position = object.elementByID[element] else {
                        throw AutomergeError(.invalidOperation, "operation on an element that does not exist")
                    }
                    object.elementStore[position].operations.append(index)
                    // An element's operations come in Lamport order: the last visible one is shown.
                    if isPlainlyVisible(operations[index]) { object.elementStore[position].shown = index }
                }
                // Plainly visible or not is visible or not, except for a counter with successors, which
                // stays visible while they are all increments: known only once every id is indexed.
                if !operations[index].successors.isEmpty, case .counter = operations[index].value { countersInSequence = true }
                index += 1
            }
        }
    }

    /// Indexes one loaded operation's id, and notes the object it creates.
    @inline(__always)
    private static func indexID(
        at index: Int, of operations: [Operation], ids: inout OperationIndex, maxCounter: inout UInt64,
        created: inout [(id: OpID, type: ObjectType)]
    ) throws(AutomergeError) {
        let id = operations[index].id
        guard ids.insert(id, index: index) == nil else {
            throw AutomergeError(.invalidOperation, "operation \(id.counter) appears twice")
        }
        maxCounter = max(maxCounter, id.counter)
        if let type = operations[index].action.createdObjectType { created.append((id, type)) }
    }

    /// Checks that an object can hold the keys of its loaded operations, and sizes its tables once:
    /// keys (one run of operations each) and elements.
    private static func reserveLoaded(_ range: Range<Int>, of operations: [Operation], in object: inout ObjectState) throws(AutomergeError) {
        var keyRuns = 0, insertions = 0
        var previousKey: OpKey?
        for index in range {
            // A map key in a list (or an element in a map) would be kept where no read finds it and
            // saved as another change (mismatching heads); the reference accepts it.
            if let type = object.type, !type.holds(operations[index].key) {
                throw AutomergeError(.invalidOperation, "operation \(operations[index].id.counter) has a key its object (a \(type)) cannot hold")
            }
            if operations[index].insert {
                insertions += 1
            } else if case .property = operations[index].key, operations[index].key != previousKey {
                keyRuns += 1
            }
            previousKey = operations[index].key
        }
        if keyRuns > 0 { object.keys.reserveCapacity(object.keys.count + keyRuns) }
        if insertions > 0 {
            object.elementByID.reserveCapacity(object.elementByID.count + insertions)
            object.elementStore.reserveCapacity(object.elementStore.count + insertions)
            object.order.reserveCapacity(object.order.count + insertions)
        }
    }

    /// Applies one operation of a change: links it to its predecessors and places it.
    /// `predecessors` must be sorted. Deletions update successors and are not kept.
    mutating func apply(_ operation: Operation, predecessors: [OpID]) throws(AutomergeError) {
        try checkApplicable(operation, predecessors: predecessors)
        maxCounter = max(maxCounter, operation.id.counter)
        let index = operations.count
        // The operations this one overwrites get it as a successor.
        let candidates = try overwriteCandidates(of: operation, predecessors: predecessors)
        try linkOverwritten(candidates, by: operation, predecessors: predecessors)
        defer {
            // An overwritten operation leaves the key's visible list (a counter stays while only
            // increments follow it, which needs this operation indexed first: hence deferred). An
            // element's shown operation is worked out again once this one is placed, for the same reason.
            switch operation.key {
            case .property(let property):
                if !predecessors.isEmpty { dropInvisible(at: property, of: operation.object, among: predecessors) }
            case .element(let element):
                if !operation.insert { refreshShown(of: element, in: operation.object) }
            }
        }
        guard operation.action != .delete else { return }
        operations.append(operation)
        operationByID.insert(operation.id, index: index, replacing: true)
        if let type = operation.action.createdObjectType {
            objects[operation.id] = ObjectState(type: type)
        }
        let ops = operations
        let order = lamportOrder
        let visible = isVisible(at: index)
        try withObject(operation.object) { (object: inout ObjectState) throws(AutomergeError) in
            switch operation.key {
            case .property(let property):
                Self.place(index, atKey: property, visible: visible, in: &object, operations: ops, order: order)
            case .element(let element):
                if operation.insert {
                    try Self.placeInsertion(index, after: element, visible: visible, in: &object, operations: ops, order: order)
                } else {
                    try Self.place(index, onElement: element, in: &object, operations: ops, order: order)
                }
            }
        }
    }

    /// Refuses an operation on an object that does not exist, at a key its object cannot hold, or
    /// a deletion that a document could not keep as it is.
    private func checkApplicable(_ operation: Operation, predecessors: [OpID]) throws(AutomergeError) {
        guard let objectType = objects[operation.object]?.type else {
            throw AutomergeError(.invalidOperation, "operation refers to an object that does not exist")
        }
        // A map key in a list (or an element in a map) would be kept where no read finds it, and saved
        // in a form that loads as another change (mismatching heads); the reference accepts it.
        guard objectType.holds(operation.key) else {
            throw AutomergeError(.invalidOperation, "operation \(operation.id.counter) has a key its object (a \(objectType)) cannot hold")
        }
        // A document keeps no deletions: it records each as a successor of the ops it deletes and makes it
        // again when loaded, as a plain deletion of those ops. One that names no op, is an insertion, or
        // carries a value or mark fields would come back different, change the hash of its change, and
        // the saved document would no longer load ("mismatching heads"); the reference accepts them.
        if operation.action == .delete {
            guard !predecessors.isEmpty, !operation.insert, operation.value == .null, !operation.expand,
                  operation.markName == nil else {
                throw AutomergeError(.invalidOperation, "deletion \(operation.id.counter) deletes nothing or carries fields a deletion cannot have")
            }
        }
    }

    /// The operations at the key or element `operation` writes, among which its predecessors are.
    private func overwriteCandidates(of operation: Operation, predecessors: [OpID]) throws(AutomergeError) -> OperationList {
        switch operation.key {
        case .property(let property):
            // Found by id, not by scanning the key, whose list grows by one operation per overwrite.
            if let found = operationsAtKey(predecessors, of: operation) { return OperationList(found) }
            return objects[operation.object]?.keys[property] ?? []
        case .element(let element):
            if operation.insert { return [] }
            guard let position = objects[operation.object]?.elementByID[element],
                  let ops = objects[operation.object]?.elementStore[position].operations else {
                throw AutomergeError(.invalidOperation, "operation on an element that does not exist")
            }
            return ops
        }
    }

    /// Gives each predecessor `operation` as a successor (and an increment's step to a counter).
    private mutating func linkOverwritten(_ candidates: OperationList, by operation: Operation, predecessors: [OpID]) throws(AutomergeError) {
        guard !predecessors.isEmpty else { return }
        var incrementValue: Int64 = 0
        if operation.isIncrement {
            switch operation.value {
            case .int(let number): incrementValue = number
            case .uint(let number): incrementValue = Int64(truncatingIfNeeded: number)
            default: break
            }
        }
        let overwritten = candidates.filter { predecessors.contains(operations[$0].id) }
        // Every predecessor must be an operation at this op's key. The reference ignores one that
        // is not (a deletion of another key's value then deletes nothing), but a document keeps
        // predecessors only as the successors of the ops they name, so such a change would be
        // saved without them and the saved document would no longer load ("mismatching heads").
        guard overwritten.count == predecessors.count else {
            throw AutomergeError(.invalidOperation, "operation \(operation.id.counter) names a predecessor that is not an operation at its key")
        }
        for candidate in overwritten {
            insertSuccessor(operation.id, into: candidate)
            if operation.isIncrement { operations[candidate].incrementTotal &+= incrementValue }
        }
    }

    /// Places the operation at `index` among a map key's operations (and its visible ones), in
    /// Lamport order.
    private static func place(
        _ index: Int, atKey property: Int, visible: Bool, in object: inout ObjectState, operations ops: [Operation], order: LamportOrder
    ) {
        let id = ops[index].id
        // In place: a copy of the list would cost as much as the key's whole history.
        var position = object.keys[property]?.count ?? 0
        while position > 0, let list = object.keys[property],
              order.precedes(id, ops[list[position - 1]].id) { position -= 1 }
        if object.visibleKeys[property] == nil && !visible {
            // The key's first operation that is not visible: list the others, which all are.
            object.visibleKeys[property] = object.keys[property] ?? []
        }
        object.keys[property, default: []].insert(index, at: position)
        if visible, object.visibleKeys[property] != nil {
            var position = object.visibleKeys[property]?.count ?? 0
            while position > 0, let list = object.visibleKeys[property],
                  order.precedes(id, ops[list[position - 1]].id) { position -= 1 }
            object.visibleKeys[property, default: []].insert(index, at: position)
        }
    }

    /// Places the insertion at `index` in a sequence, after `element` and after the elements
    /// inserted concurrently there with a greater id.
    private static func placeInsertion(
        _ index: Int, after element: OpID, visible: Bool, in object: inout ObjectState, operations ops: [Operation], order: LamportOrder
    ) throws(AutomergeError) {
        let id = ops[index].id
        var position: Int
        if element.isRoot {
            position = 0
        } else if let store = object.elementByID[element] {
            if let hint = object.lastInsertion, hint.store == store, hint.position < object.order.count,
               object.order[hint.position] == store {
                position = hint.position + 1
            } else if let found = object.order.firstIndex(of: store) {
                position = found + 1
            } else {
                throw AutomergeError(.invalidOperation, "insertion after an element that does not exist")
            }
        } else {
            // After an element the object does not hold: at the end, where the reference's search
            // for the element stops. Its save keeps the element there, and loads again.
            position = object.order.count
        }
        // Skip elements inserted concurrently with a greater id (and what follows them).
        while position < object.order.count {
            let other = ops[object.elementStore[object.order[position]].operations[0]].id
            if order.precedes(other, id) { break }
            position += 1
        }
        object.elementByID.insert(id, index: object.elementStore.count, replacing: true)
        object.lastInsertion = (object.elementStore.count, position)
        object.order.insert(object.elementStore.count, at: position)
        object.elementStore.append(ObjectState.Element(operations: OperationList(index), shown: visible ? index : -1))
    }

    /// Places the operation at `index` among the operations on a sequence element, in Lamport
    /// order after the insertion.
    private static func place(
        _ index: Int, onElement element: OpID, in object: inout ObjectState, operations ops: [Operation], order: LamportOrder
    ) throws(AutomergeError) {
        guard let store = object.elementByID[element] else {
            throw AutomergeError(.invalidOperation, "operation on an element that does not exist")
        }
        let id = ops[index].id
        var list = object.elementStore[store].operations
        var position = list.count
        while position > 1 && order.precedes(id, ops[list[position - 1]].id) { position -= 1 }
        list.insert(index, at: position)
        object.elementStore[store].operations = list
    }

    /// The indices of `predecessors` when each is an operation at `operation`'s object and map key
    /// (sorted ids, none twice); nil otherwise, and the caller's scan of the key decides.
    private func operationsAtKey(_ predecessors: [OpID], of operation: Operation) -> [Int]? {
        var found: [Int] = []
        found.reserveCapacity(predecessors.count)
        for (position, id) in predecessors.enumerated() {
            if position > 0 && predecessors[position - 1] == id { return nil }
            guard let index = operationByID[id], operations[index].object == operation.object, operations[index].key == operation.key,
                  !operations[index].insert else { return nil }
            found.append(index)
        }
        return found
    }

    /// Removes from a map key's visible operations those among `ids` that are no longer visible.
    private mutating func dropInvisible(at property: Int, of object: OpID, among ids: [OpID]) {
        guard let list = objects[object]?.visibleOperations(at: property) else { return }
        let dropped = list.filter { ids.contains(operations[$0].id) && !isVisible(at: $0) }
        guard !dropped.isEmpty else { return }
        objects[object]?.visibleKeys[property] = OperationList(list.lazy.filter { !dropped.contains($0) })
    }

    private mutating func insertSuccessor(_ id: OpID, into index: Int) {
        var successors = operations[index].successors
        var position = successors.count
        while position > 0 && precedes(id, successors[position - 1]) { position -= 1 }
        successors.insert(id, at: position)
        operations[index].successors = successors
    }

    private mutating func withObject(
        _ id: OpID, _ body: (inout ObjectState) throws(AutomergeError) -> Void
    ) throws(AutomergeError) {
        var object = objects.removeValue(forKey: id) ?? ObjectState(type: nil)
        defer { objects[id] = object }
        try body(&object)
    }
}

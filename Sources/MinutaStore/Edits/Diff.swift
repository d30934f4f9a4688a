/// The edits that turn one sequence into another.
enum Diff {
    /// The single splice that turns `old` into `new`: the common prefix and suffix stay.
    static func splice<T: Equatable>(from old: [T], to new: [T]) -> (index: Int, deleteCount: Int, insert: [T])? {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
              old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        let deleteCount = old.count - prefix - suffix
        let insert = Array(new[prefix..<(new.count - suffix)])
        if deleteCount == 0 && insert.isEmpty { return nil }
        return (prefix, deleteCount, insert)
    }

    enum Step<T> { case delete(at: Int), insert(T, at: Int) }

    /// Inserts and deletes that turn `old` into `new` (the standard library's
    /// `CollectionDifference`, a shortest edit script), with indices valid at the moment each step
    /// is applied: the deletions from the back, then the insertions from the front.
    static func steps<T: Equatable>(from old: [T], to new: [T]) -> [Step<T>] {
        let difference = new.difference(from: old)
        var steps: [Step<T>] = []
        steps.reserveCapacity(difference.count)
        for change in difference.removals.reversed() {
            if case .remove(let offset, _, _) = change { steps.append(.delete(at: offset)) }
        }
        for change in difference.insertions {
            if case .insert(let offset, let element, _) = change { steps.append(.insert(element, at: offset)) }
        }
        return steps
    }
}

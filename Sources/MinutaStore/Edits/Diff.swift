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

    /// Inserts and deletes (by a longest common subsequence) that turn `old` into `new`, with
    /// indices valid at the moment each step is applied.
    static func steps<T: Equatable>(from old: [T], to new: [T]) -> [Step<T>] {
        let n = old.count, m = new.count
        var lengths = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        if n > 0 && m > 0 {
            for i in stride(from: n - 1, through: 0, by: -1) {
                for j in stride(from: m - 1, through: 0, by: -1) {
                    lengths[i][j] = old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
                }
            }
        }
        var steps: [Step<T>] = []
        var i = 0, j = 0, position = 0
        while i < n || j < m {
            if i < n, j < m, old[i] == new[j], lengths[i][j] == lengths[i + 1][j + 1] + 1 {
                i += 1; j += 1; position += 1
            } else if j < m, i == n || lengths[i][j + 1] >= lengths[i + 1][j] {
                steps.append(.insert(new[j], at: position))
                j += 1; position += 1
            } else {
                steps.append(.delete(at: position))
                i += 1
            }
        }
        return steps
    }
}

@testable import MinutaStore
import Testing

/// `Diff`: the edits the store makes to lists (image names) and text (comments). Applied in order,
/// the steps turn the old sequence into the new one, and there are as few as possible: the
/// shortest edit script's length (n + m - 2 * the longest common subsequence), worked out by hand
/// for each row.
struct DiffTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var old: String
        var new: String
        var shortest: Int
        var testDescription: String { "\(old) -> \(new)" }
    }

    static let rows: [Row] = [
        Row(old: "", new: "", shortest: 0),
        Row(old: "abc", new: "abc", shortest: 0),
        Row(old: "", new: "abc", shortest: 3),
        Row(old: "abc", new: "", shortest: 3),
        Row(old: "abc", new: "abxc", shortest: 1),
        Row(old: "abc", new: "ac", shortest: 1),
        Row(old: "abc", new: "cba", shortest: 4),
        Row(old: "kitten", new: "sitting", shortest: 5),
        // The example of Myers's paper "An O(ND) difference algorithm": D = 5.
        Row(old: "abcabba", new: "cbabac", shortest: 5),
        Row(old: "aaaa", new: "aa", shortest: 2),
        Row(old: "ab", new: "ba", shortest: 2),
    ]

    static func apply(_ steps: [Diff.Step<Character>], to old: [Character]) -> [Character] {
        var result = old
        for step in steps {
            switch step {
            case .delete(let index): result.remove(at: index)
            case .insert(let element, let index): result.insert(element, at: index)
            }
        }
        return result
    }

    @Test("the steps, applied in order, turn the old sequence into the new one, in as few steps as possible", arguments: rows)
    func steps(row: Row) {
        let steps = Diff.steps(from: Array(row.old), to: Array(row.new))
        #expect(String(Self.apply(steps, to: Array(row.old))) == row.new)
        #expect(steps.count == row.shortest)
    }

    @Test("a splice keeps the common prefix and suffix", arguments: rows)
    func splice(row: Row) {
        let old = Array(row.old), new = Array(row.new)
        guard let splice = Diff.splice(from: old, to: new) else {
            #expect(row.old == row.new)
            return
        }
        var result = old
        result.replaceSubrange(splice.index..<(splice.index + splice.deleteCount), with: splice.insert)
        #expect(String(result) == row.new)
    }

    @Test("a long list with one change is one step (not quadratic work)")
    func longList() {
        let old = (0..<20_000).map { "image-\($0).jpg" }
        var new = old
        new.remove(at: 10_000)
        let steps = Diff.steps(from: old, to: new)
        #expect(steps.count == 1)
    }
}

import AutomergeKit
import TestSupport

/// Three replicas that take turns editing at random and committing, each round ending with one merged
/// into another: what the tests of the indexes an op set keeps as changes apply (a key's visible
/// operations, the operation each element shows) check after every turn and every merge.
enum RandomEditRounds {
    /// Runs `rounds` rounds from `seed` and returns every replica merged into one. `check` is called
    /// with each replica after its turn and after a merge into it, and with what it was, for the message.
    static func run(
        seed: UInt64, actorByte: UInt8, rounds: Int, editsPerTurn: ClosedRange<Int>,
        setUp: (inout Document) throws -> Void = { _ in },
        edit: (inout Document, inout SeededGenerator) throws -> Void,
        check: (Document, String) -> Void
    ) throws -> Document {
        var random = SeededGenerator(seed: seed)
        var replicas = (0..<3).map { Document(actor: ActorID(bytes: [UInt8](repeating: UInt8($0 + 1) &* actorByte, count: 16))) }
        try setUp(&replicas[0])
        replicas[0].commit(time: 0)
        for index in 1..<replicas.count { try replicas[index].merge(replicas[0]) }
        var time: Int64 = 0
        for round in 0..<rounds {
            for index in replicas.indices {
                for _ in 0..<Int.random(in: editsPerTurn, using: &random) {
                    try edit(&replicas[index], &random)
                    time += 1
                    replicas[index].commit(time: time)
                }
                check(replicas[index], "replica \(index) after its edits in round \(round)")
            }
            // Concurrent edits of the same keys and elements meet here.
            let from = Int.random(in: 0..<replicas.count, using: &random)
            let to = (from + Int.random(in: 1..<replicas.count, using: &random)) % replicas.count
            try replicas[to].merge(replicas[from])
            check(replicas[to], "replica \(to) after a merge in round \(round)")
        }
        var merged = replicas[0].fork()
        for replica in replicas.dropFirst() { try merged.merge(replica) }
        return merged
    }
}

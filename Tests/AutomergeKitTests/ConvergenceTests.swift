import AutomergeKit
import Testing
import TestSupport

/// Property tests: random edits on several replicas, merged in random orders, converge.
struct ConvergenceTests {
    static let alphabet = Array("ab cdé👍🏽\n日Z")

    /// Makes one random edit of every kind the API offers on `document`.
    static func randomEdit(_ document: inout Document, using random: inout SeededGenerator) throws {
        let root = ObjectID.root
        let text = document.value(of: root, key: "text").flatMap { if case .object(let id, _) = $0 { id } else { nil } }
        let list = document.value(of: root, key: "list").flatMap { if case .object(let id, _) = $0 { id } else { nil } }
        switch Int.random(in: 0..<9, using: &random) {
        case 0:
            try document.put(.string(String(alphabet.randomElement(using: &random)!)), forKey: ["a", "b", "c"].randomElement(using: &random)!)
        case 1:
            try document.put(.int(Int64.random(in: -1000...1000, using: &random)), forKey: ["a", "n"].randomElement(using: &random)!)
        case 2:
            try document.delete(forKey: ["a", "b", "c", "n"].randomElement(using: &random)!)
        case 3:
            if let text {
                let length = document.text(of: text).unicodeScalars.count
                let index = Int.random(in: 0...length, using: &random)
                let deleteCount = Int.random(in: 0...min(2, length - index), using: &random)
                let insert = String((0..<Int.random(in: 0...3, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
                // Never split a multi-scalar character: insert and delete whole scalars only.
                try document.spliceText(text, at: index, delete: deleteCount, insert: insert)
            } else {
                try document.putObject(.text, forKey: "text")
            }
        case 4:
            if let list {
                let length = document.length(of: list)
                try document.insert(.int(Int64.random(in: 0...99, using: &random)), at: Int.random(in: 0...length, using: &random), in: list)
            } else {
                try document.putObject(.list, forKey: "list")
            }
        case 5:
            if let list, document.length(of: list) > 0 {
                try document.delete(at: Int.random(in: 0..<document.length(of: list), using: &random), in: list)
            }
        case 6:
            if case .scalar(.counter) = document.value(of: root, key: "counter") {
                try document.increment(forKey: "counter", by: Int64.random(in: -5...5, using: &random))
            } else {
                try document.put(.counter(0), forKey: "counter")
            }
        case 7:
            let map = try document.putObject(.map, forKey: "nested")
            try document.put(.boolean(Bool.random(using: &random)), forKey: "flag", in: map)
        default:
            if let list, document.length(of: list) > 0 {
                try document.put(.string("set"), at: Int.random(in: 0..<document.length(of: list), using: &random), in: list)
            }
        }
    }

    static func snapshot(_ document: Document) -> String {
        document.typedJSON()
    }

    @Test("replicas editing at random converge whatever the merge order", arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func convergence(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let replicaCount = seed % 2 == 0 ? 2 : 3
        var replicas = (0..<replicaCount).map { Document(actor: ActorID(bytes: [UInt8](repeating: UInt8($0 + 1) * 17, count: 16))) }
        var time: Int64 = 0
        for _ in 0..<6 {
            for index in replicas.indices {
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    try Self.randomEdit(&replicas[index], using: &random)
                    time += 1
                    replicas[index].commit(time: time)
                }
            }
            // Sync a random pair.
            let from = Int.random(in: 0..<replicas.count, using: &random)
            let to = Int.random(in: 0..<replicas.count, using: &random)
            if from != to { try replicas[to].merge(replicas[from]) }
        }
        var merged: [Document] = []
        for _ in 0..<3 {
            var order = Array(replicas.indices)
            order.shuffle(using: &random)
            var document = replicas[order[0]].fork()
            for index in order.dropFirst() { try document.merge(replicas[index]) }
            merged.append(document)
        }
        for document in merged.dropFirst() {
            #expect(document.heads == merged[0].heads)
            #expect(Self.snapshot(document) == Self.snapshot(merged[0]))
            #expect(document.conflictLines() == merged[0].conflictLines())
        }
        // Same application order, same bytes; save, load, save is a fixed point.
        var first = merged[0]
        let bytes = try first.save()
        var reloaded = try Document.load(bytes)
        #expect(try reloaded.save() == bytes)
        #expect(Self.snapshot(reloaded) == Self.snapshot(merged[0]))
        // Merging with itself or twice changes nothing.
        var again = reloaded
        try again.merge(reloaded)
        try again.merge(replicas[0])
        #expect(try again.save() == bytes)
    }
}

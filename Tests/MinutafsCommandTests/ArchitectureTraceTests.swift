import Foundation
import Testing
import TestSupport

/// docs/ARCHITECTURE.md's three traces (a `cat` of a record, an editor's save in place, a save by
/// rename) name a file and a function at each step, and its lock order names a file and a lock at each
/// line; this keeps them true when code moves or is renamed, and the lock order complete when a lock is
/// added.
struct ArchitectureTraceTests {
    struct Step: CustomStringConvertible {
        var trace: String
        var number: Int
        var file: String
        var function: String
        var description: String { "\(trace)\(number): \(file) — \(function)" }
    }

    static func steps() throws -> [Step] {
        let text = try String(contentsOfFile: Fixtures.packageRoot + "/docs/ARCHITECTURE.md", encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"^(\d+)\. `([^`]+)` — `([A-Za-z_][A-Za-z0-9_]*)`"#)
        var steps: [Step] = []
        var trace = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if let name = ["R", "W", "S"].first(where: { line.hasPrefix("### \($0). ") }) {
                trace = name
            } else if line.hasPrefix("## ") || line.hasPrefix("### ") {
                trace = ""
            }
            guard !trace.isEmpty, let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                  let number = Range(match.range(at: 1), in: line), let file = Range(match.range(at: 2), in: line),
                  let function = Range(match.range(at: 3), in: line) else { continue }
            steps.append(Step(trace: trace, number: Int(line[number]) ?? -1, file: String(line[file]), function: String(line[function])))
        }
        return steps
    }

    @Test("all three traces are there, each numbered in order from 1")
    func tracesAreComplete() throws {
        let steps = try Self.steps()
        for trace in ["R", "W", "S"] {
            let numbers = steps.filter { $0.trace == trace }.map(\.number)
            #expect(numbers.count >= 15, "trace \(trace) has \(numbers.count) steps")
            #expect(numbers == Array(1...max(1, numbers.count)), "trace \(trace) is numbered \(numbers)")
        }
    }

    @Test("every file a trace names exists and holds the function it names")
    func namedFunctionsExist() throws {
        for step in try Self.steps() {
            let path = Fixtures.packageRoot + "/" + step.file
            guard let source = try? String(contentsOfFile: path, encoding: .utf8) else {
                Issue.record("\(step): no such file")
                continue
            }
            let defined = source.contains("func \(step.function)(") || source.contains("func \(step.function)<")
                || source.contains(".\(step.function) = ")
            #expect(defined, "\(step): the file defines no such function")
        }
    }

    /// The body of the first `func name(` or `func name<` in `source` (from its opening brace to the
    /// matching closing one), nil when there is none.
    static func body(of name: String, in source: String) -> Substring? {
        guard let start = source.range(of: "func \(name)(") ?? source.range(of: "func \(name)<"),
              let open = source[start.upperBound...].firstIndex(of: "{") else { return nil }
        var depth = 0
        var index = open
        while index < source.endIndex {
            switch source[index] {
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 { return source[open...index] }
            default: break
            }
            index = source.index(after: index)
        }
        return nil
    }

    /// The line of `body` (counted from its first) where it first calls `function` (`function(`,
    /// `function {`, `function<`), nil when it does not. Lines, not characters: in
    /// `pretty(json(…))` the inner call runs first, and both are on one line.
    static func firstCall(of function: String, in body: Substring) -> Int? {
        let pattern = try? NSRegularExpression(pattern: "(?<![A-Za-z0-9_])" + NSRegularExpression.escapedPattern(for: function) + #"\s*[({<]"#)
        let text = String(body)
        guard let match = pattern?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
              let range = Range(match.range, in: text) else { return nil }
        return text[..<range.lowerBound].reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
    }

    @Test("within each trace, the steps a function calls come in the order its body calls them")
    func stepsInCallOrder() throws {
        let steps = try Self.steps()
        var checkedPairs = 0
        for trace in ["R", "W", "S"] {
            let traced = steps.filter { $0.trace == trace }
            var bodies: [Int: Substring] = [:]
            for (index, step) in traced.enumerated() {
                if let source = try? String(contentsOfFile: Fixtures.packageRoot + "/" + step.file, encoding: .utf8) {
                    bodies[index] = Self.body(of: step.function, in: source)
                }
            }
            // Each step's caller: the nearest earlier step whose body calls it; among the steps one
            // caller calls, the trace's order must be the body's.
            var called: [Int: [(step: Step, position: Int)]] = [:]
            for (index, step) in traced.enumerated() where index > 0 {
                // A step naming a function an earlier step named goes on with it (what it does after
                // the steps between): it is not a second call.
                if traced[..<index].contains(where: { $0.file == step.file && $0.function == step.function }) { continue }
                for caller in stride(from: index - 1, through: 0, by: -1) {
                    guard traced[caller].function != step.function, let body = bodies[caller],
                          let position = Self.firstCall(of: step.function, in: body) else { continue }
                    called[caller, default: []].append((step, position))
                    break
                }
            }
            for (caller, callees) in called {
                for (earlier, later) in zip(callees, callees.dropFirst()) {
                    checkedPairs += 1
                    #expect(earlier.position <= later.position,
                            "\(later.step) comes after \(earlier.step) in the trace, but \(traced[caller].function) calls it first")
                }
            }
        }
        #expect(checkedPairs >= 5, "only \(checkedPairs) pairs of steps share a caller: the check looks at nothing")
    }

    /// The "Locks" section's lines: (number, file, lock name).
    static func lockOrder() throws -> [(number: Int, file: String, name: String)] {
        let text = try String(contentsOfFile: Fixtures.packageRoot + "/docs/ARCHITECTURE.md", encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"^(\d+)\. `([^`]+)` — `([A-Za-z_][A-Za-z0-9_]*)`"#)
        var locks: [(number: Int, file: String, name: String)] = []
        var inSection = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## ") || line.hasPrefix("### ") { inSection = line == "## Locks" }
            guard inSection, let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                  let number = Range(match.range(at: 1), in: line), let file = Range(match.range(at: 2), in: line),
                  let name = Range(match.range(at: 3), in: line) else { continue }
            locks.append((Int(line[number]) ?? -1, String(line[file]), String(line[name])))
        }
        return locks
    }

    @Test("the lock order names every Mutex of the store and the adapter, each declared where it says, numbered from 1")
    func lockOrderIsComplete() throws {
        let listed = try Self.lockOrder()
        #expect(listed.map(\.number) == Array(1...max(1, listed.count)), "the lock order is numbered \(listed.map(\.number))")
        let declaration = try NSRegularExpression(pattern: #"let ([A-Za-z_][A-Za-z0-9_]*)(?:: Mutex<| = Mutex[<(])"#)
        var declared: Set<String> = []
        for folder in ["Sources/MinutaStore", "Sources/MinutaFS"] {
            let root = Fixtures.packageRoot + "/" + folder
            let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            for file in files {
                let source = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                for match in declaration.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                    if let name = Range(match.range(at: 1), in: source) { declared.insert(folder + "/" + file + " " + source[name]) }
                }
            }
        }
        let named = Set(listed.map { $0.file + " " + $0.name })
        #expect(declared.subtracting(named).isEmpty, "locks missing from docs/ARCHITECTURE.md's lock order: \(declared.subtracting(named).sorted())")
        #expect(named.subtracting(declared).isEmpty, "the lock order names locks no file declares: \(named.subtracting(declared).sorted())")
    }
}

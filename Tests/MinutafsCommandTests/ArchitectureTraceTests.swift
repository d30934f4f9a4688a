import Foundation
import Testing
import TestSupport

/// docs/ARCHITECTURE.md's two traces (a `cat` of a record, an editor's save) name a file and a
/// function at each step; this keeps them true when code moves or is renamed.
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
            if line.hasPrefix("### R. ") { trace = "R" } else if line.hasPrefix("### W. ") { trace = "W" } else if line.hasPrefix("## ") || line.hasPrefix("### ") { trace = "" }
            guard !trace.isEmpty, let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                  let number = Range(match.range(at: 1), in: line), let file = Range(match.range(at: 2), in: line),
                  let function = Range(match.range(at: 3), in: line) else { continue }
            steps.append(Step(trace: trace, number: Int(line[number]) ?? -1, file: String(line[file]), function: String(line[function])))
        }
        return steps
    }

    @Test("both traces are there, numbered in order from 1")
    func tracesAreComplete() throws {
        let steps = try Self.steps()
        for trace in ["R", "W"] {
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
}

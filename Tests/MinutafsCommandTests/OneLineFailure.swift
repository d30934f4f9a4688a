import Testing
import TestSupport

/// Checks that `minutafs ARGUMENTS` exits with status 1, prints nothing on standard output, and
/// exactly one line `minutafs: PATH: cause` on standard error. `wrapper` runs it through another
/// program (see `MinutafsBinary.run`).
@discardableResult
func expectOneLineFailure(of arguments: [String], naming path: String, wrapper: [String] = [],
                          sourceLocation: SourceLocation = #_sourceLocation) throws -> CommandResult {
    let result = try MinutafsBinary.run(arguments, wrapper: wrapper)
    #expect(result.status == 1, sourceLocation: sourceLocation)
    #expect(result.outputText.isEmpty, sourceLocation: sourceLocation)
    let lines = result.errorText.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 2 && lines[1].isEmpty, "not one line: \(result.errorText)", sourceLocation: sourceLocation)
    #expect(result.errorText.hasPrefix("minutafs: \(path): "), "\(result.errorText)", sourceLocation: sourceLocation)
    return result
}

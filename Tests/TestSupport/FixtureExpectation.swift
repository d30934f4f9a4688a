/// One row of an `EXPECTED.tsv` in `Tests/Fixtures/automerge/corrupt/` or `upstream/`: a damaged
/// or unusual file and whether the reference loads it.
public struct FixtureExpectation: Sendable, CustomStringConvertible {
    public enum Verdict: String, Sendable {
        /// The file loads; where a `.json` sits beside it, the state equals it.
        case ok = "OK"
        /// Loading returns an error (no crash, no hang).
        case error = "ERROR"
    }

    /// The file's path relative to `Tests/Fixtures/automerge` (`"corrupt/trunc-00001.automerge"`).
    public let path: String
    public let verdict: Verdict
    /// What was done to the file, where the table says (`"first 1 of 5747 bytes"`), else `""`.
    public let what: String

    /// The path of the typed JSON the state must equal (`NAME.json` beside `NAME.automerge`),
    /// whether or not that file exists.
    public var jsonPath: String {
        let base = path.hasSuffix(".automerge") ? String(path.dropLast(".automerge".count)) : path
        return base + ".json"
    }

    public var description: String { "\(path) \(verdict.rawValue)" }

    /// The rows of `Tests/Fixtures/automerge/FOLDER/EXPECTED.tsv`, in file order.
    ///
    /// The columns are found by the header row's names (`file`, `verdict`, and `what` where present),
    /// since the two tables differ; the reference's error text is informational and not read.
    public static func rows(in folder: String) throws -> [FixtureExpectation] {
        let table = try Fixtures.text("\(folder)/EXPECTED.tsv")
        var lines = table.split(separator: "\n", omittingEmptySubsequences: true).map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        guard !lines.isEmpty else { throw FixtureError("\(folder)/EXPECTED.tsv is empty") }
        let header = lines.removeFirst()
        guard let fileColumn = header.firstIndex(of: "file"), let verdictColumn = header.firstIndex(of: "verdict") else {
            throw FixtureError("\(folder)/EXPECTED.tsv has no file and verdict columns: \(header)")
        }
        let whatColumn = header.firstIndex(of: "what")
        return try lines.map { fields in
            guard fields.count > max(fileColumn, verdictColumn),
                  let verdict = Verdict(rawValue: fields[verdictColumn]) else {
                throw FixtureError("\(folder)/EXPECTED.tsv: bad row \(fields)")
            }
            let what = whatColumn.flatMap { $0 < fields.count ? fields[$0] : nil } ?? ""
            return FixtureExpectation(path: "\(folder)/\(fields[fileColumn])", verdict: verdict, what: what)
        }
    }
}

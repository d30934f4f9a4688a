/// A merge order as `MANIFEST.json` writes it: `merge(a,b,c)` loads `a` and merges `b`, then `c`,
/// into it; arguments may be input letters, `merged` (the set's merged result) or nested merges,
/// as in `merge(a,merge(c,b))`.
public indirect enum MergeExpression: Equatable, Sendable, CustomStringConvertible {
    /// An input letter or `merged`.
    case file(String)
    /// The first operand loaded, each other one merged into it in order.
    case merge([MergeExpression])

    public init(parsing text: String) throws {
        var remaining = Substring(text)
        self = try Self.parse(&remaining)
        guard remaining.isEmpty else { throw FixtureError("trailing text in merge expression \(text)") }
    }

    public var description: String {
        switch self {
        case .file(let name): name
        case .merge(let operands): "merge(" + operands.map(\.description).joined(separator: ",") + ")"
        }
    }

    /// The order of a flat merge of files (`merge(b,a)` gives `["b", "a"]`); `nil` if nested.
    public var flatOrder: [String]? {
        guard case .merge(let operands) = self else { return nil }
        var order: [String] = []
        for operand in operands {
            guard case .file(let name) = operand else { return nil }
            order.append(name)
        }
        return order
    }

    private static func parse(_ text: inout Substring) throws -> MergeExpression {
        guard text.hasPrefix("merge(") else {
            let name = text.prefix { $0 != "," && $0 != ")" }
            guard !name.isEmpty else { throw FixtureError("expected a name in merge expression at \(text)") }
            text.removeFirst(name.count)
            return .file(String(name))
        }
        text.removeFirst("merge(".count)
        var operands: [MergeExpression] = []
        while true {
            operands.append(try parse(&text))
            guard let separator = text.popFirst() else {
                throw FixtureError("unterminated merge expression")
            }
            if separator == ")" { return .merge(operands) }
            guard separator == "," else { throw FixtureError("unexpected \(separator) in merge expression") }
        }
    }
}
